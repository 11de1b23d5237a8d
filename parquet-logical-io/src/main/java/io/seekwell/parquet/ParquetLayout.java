package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.SchemaFingerprint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A parsed footer as a stream's reads need it: the footer's length in the file (with its 8-byte
 * trailer), the schema's fingerprint, the column chunks sorted by where they start (with those
 * starts, to search), the chunks of each row group, and where each row group ends. Built once per
 * stream when the footer is parsed, so that a read only searches arrays. Immutable.
 */
record ParquetLayout(
    ParquetFooter footer,
    long footerBytes,
    String fingerprint,
    ParquetLayout.Chunk[] chunks,
    long[] starts,
    List<List<ParquetLayout.Chunk>> chunksByRowGroup,
    long[] rowGroupEnds) {

  /** A column chunk: its column's dotted name, row group and bytes (both ends included). */
  record Chunk(String column, int rowGroup, long start, long end) {

    boolean overlaps(long from, long to) {
      return start <= to && end >= from;
    }

    boolean holds(long from, long to) {
      return start <= from && to <= end;
    }
  }

  /** The layout of {@code footer}, {@code footerBytes} long in the file with its trailer. */
  static ParquetLayout of(ParquetFooter footer, long footerBytes) {
    int rowGroups = footer.metadata().getRow_groups().size();
    List<List<Chunk>> byRowGroup = new ArrayList<>();
    for (int i = 0; i < rowGroups; i++) {
      byRowGroup.add(new ArrayList<>());
    }
    long[] rowGroupEnds = new long[rowGroups];
    Chunk[] chunks = new Chunk[footer.columnChunks().size()];
    int next = 0;
    for (ColumnChunk columnChunk : footer.columnChunks()) {
      ByteRange range = columnChunk.range();
      Chunk chunk =
          new Chunk(columnChunk.dottedPath(), columnChunk.rowGroup(), range.start(), range.end());
      chunks[next++] = chunk;
      byRowGroup.get(chunk.rowGroup()).add(chunk);
      rowGroupEnds[chunk.rowGroup()] = Math.max(rowGroupEnds[chunk.rowGroup()], chunk.end());
    }
    Arrays.sort(chunks, Comparator.comparingLong(Chunk::start));
    long[] starts = new long[chunks.length];
    for (int i = 0; i < chunks.length; i++) {
      starts[i] = chunks[i].start();
    }
    return new ParquetLayout(
        footer,
        footerBytes,
        SchemaFingerprint.of(footer.metadata().getSchema()),
        chunks,
        starts,
        byRowGroup,
        rowGroupEnds);
  }

  /** The first byte after the last column chunk (after the magic if there is none). */
  long dataEnd() {
    long end = ParquetFooter.MAGIC.length - 1;
    for (long rowGroupEnd : rowGroupEnds) {
      end = Math.max(end, rowGroupEnd);
    }
    return end + 1;
  }

  int lastRowGroup() {
    return chunksByRowGroup.size() - 1;
  }

  /** The index of the chunk that holds byte {@code position}, or -1 if none does. */
  int chunkAt(long position) {
    int i = lastChunkStartingBy(position);
    return i >= 0 && chunks[i].end() >= position ? i : -1;
  }

  /**
   * The index of the last chunk starting at or before {@code position}, or -1 if every chunk starts
   * after it.
   */
  int lastChunkStartingBy(long position) {
    int i = Arrays.binarySearch(starts, position);
    return i >= 0 ? i : -i - 2;
  }
}
