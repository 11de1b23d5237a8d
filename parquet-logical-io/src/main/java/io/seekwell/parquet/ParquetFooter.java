package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * The parsed footer of a Parquet file: its {@link FileMetaData} and where each column chunk lies.
 * Immutable once built.
 *
 * @param metadata the file metadata, as parquet-format-structures parses it
 * @param columnChunks every column chunk of every row group
 */
record ParquetFooter(FileMetaData metadata, List<ColumnChunk> columnChunks) {

  /** The bytes every Parquet file ends with. */
  static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /** Footer length (4 bytes, little-endian) plus magic. */
  static final int TRAILER = 8;

  /**
   * The length of the metadata block, read from the last 8 bytes of a file.
   *
   * @param tail bytes at the end of the file, at least 8
   * @throws IOException if the file does not end with the Parquet magic
   */
  static int metadataLength(byte[] tail, String file) throws IOException {
    int at = tail.length - TRAILER;
    for (int i = 0; i < MAGIC.length; i++) {
      if (tail[at + 4 + i] != MAGIC[i]) {
        throw new IOException(file + " is not a Parquet file: it does not end with PAR1");
      }
    }
    int length = ByteBuffer.wrap(tail, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (length < 0) {
      throw new IOException(file + " has a negative Parquet footer length " + length);
    }
    return length;
  }

  /** Where the metadata block of a file of {@code fileLength} bytes lies. */
  static ByteRange metadataRange(long fileLength, int metadataLength, String file)
      throws IOException {
    long start = fileLength - TRAILER - metadataLength;
    if (start < MAGIC.length || metadataLength == 0) {
      throw new IOException(
          file + " has a Parquet footer of " + metadataLength + " bytes in " + fileLength);
    }
    return ByteRange.ofLength(start, metadataLength);
  }

  /** Parses the metadata block (the Thrift-encoded {@link FileMetaData}). */
  static ParquetFooter parse(byte[] metadataBlock, int offset, int length) throws IOException {
    FileMetaData metadata =
        Util.readFileMetaData(new ByteArrayInputStream(metadataBlock, offset, length));
    List<ColumnChunk> chunks = new ArrayList<>();
    List<RowGroup> rowGroups = metadata.getRow_groups();
    for (int group = 0; group < rowGroups.size(); group++) {
      for (org.apache.parquet.format.ColumnChunk chunk : rowGroups.get(group).getColumns()) {
        ColumnMetaData column = chunk.getMeta_data();
        chunks.add(
            new ColumnChunk(
                List.copyOf(column.getPath_in_schema()),
                group,
                column.isSetDictionary_page_offset() ? column.getDictionary_page_offset() : -1,
                column.getData_page_offset(),
                column.getTotal_compressed_size()));
      }
    }
    return new ParquetFooter(metadata, List.copyOf(chunks));
  }
}
