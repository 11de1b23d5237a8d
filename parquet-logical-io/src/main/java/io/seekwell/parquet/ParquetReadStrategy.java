package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What a stream over a Parquet file reads ahead. At open: one GET for the file's tail (footer and
 * page indexes), and for a large file one more for the bytes before it; the footer is parsed on the
 * plug-in's executor as soon as the tail is in (fetching the rest of a footer longer than the tail
 * if needed). Then the columns readers of files with the same schema read before are prefetched
 * (the first two row groups, or all, as the mode says); every read is matched to the column chunks
 * it touches, and the columns learned so are prefetched for the row groups after it (the next one,
 * or all) and remembered for the next file. Each chunk is prefetched at most once. A stream thread
 * only waits (briefly) for the footer to be parsed, never for I/O it has not already waited for.
 */
final class ParquetReadStrategy implements ReadStrategy {

  private static final long FOOTER_WAIT_SECONDS = 2;

  private final Prefetcher prefetcher;
  private final ParquetSettings settings;
  private final Executor parser;
  private final ColumnHistory history;
  private final String file;
  private final Consumer<ParquetFooter> footerListener;
  private final Set<Long> prefetchedChunks = ConcurrentHashMap.newKeySet();
  private ByteRange footerTail;
  private CompletableFuture<Layout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));

  /** The parsed footer, its schema's fingerprint, its chunks by start and by row group. */
  private record Layout(
      ParquetFooter footer,
      String fingerprint,
      NavigableMap<Long, ColumnChunk> chunksByStart,
      List<List<ColumnChunk>> chunksByRowGroup) {

    int lastRowGroup() {
      return chunksByRowGroup.size() - 1;
    }
  }

  /**
   * A strategy for one stream; {@code footerListener} is given the footer once it is parsed (on a
   * parser thread).
   */
  ParquetReadStrategy(
      Prefetcher prefetcher,
      ParquetSettings settings,
      Executor parser,
      ColumnHistory history,
      Consumer<ParquetFooter> footerListener) {
    this.prefetcher = prefetcher;
    this.footerListener = footerListener;
    this.settings = settings;
    this.parser = parser;
    this.history = history;
    this.file = prefetcher.objectName();
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    if (length < ParquetFooter.TRAILER) {
      return;
    }
    long footerSize = settings.footerSize(length);
    footerTail = ByteRange.ofLength(length - footerSize, footerSize);
    CompletableFuture<byte[]> footerBytes = prefetcher.fetch(footerTail);
    long beforeFooter = settings.tailSize(length) - footerSize;
    if (beforeFooter > 0) {
      // In parallel: the footer is parsed as soon as its own (smaller) GET is in.
      prefetchQuietly(ByteRange.ofLength(footerTail.start() - beforeFooter, beforeFooter));
    }
    layout =
        footerBytes
            .thenComposeAsync(bytes -> footerFrom(footerTail, bytes), parser)
            .thenApply(this::layoutOf)
            .whenComplete((parsed, failure) -> predictAtOpen(parsed));
    layout.thenAccept(parsed -> footerListener.accept(parsed.footer()));
  }

  /** The parsed footer, once the tail is in; fails if the file is not valid Parquet. */
  CompletableFuture<ParquetFooter> footer() {
    return layout.thenApply(Layout::footer);
  }

  @Override
  public void beforeRead(long position, long length) throws IOException {
    beforePositionalRead(position, length);
  }

  @Override
  public void beforePositionalRead(long position, long length) throws IOException {
    if (length > 0) {
      observe(List.of(ByteRange.ofLength(position, length)));
    }
  }

  @Override
  public void beforeVectoredRead(List<ByteRange> ranges) throws IOException {
    observe(ranges);
  }

  /** Learns the columns {@code reads} touch and prefetches them for the row groups after. */
  private void observe(List<ByteRange> reads) throws IOException {
    List<ByteRange> outsideTail =
        footerTail == null
            ? List.of()
            : reads.stream().filter(r -> !footerTail.contains(r.start())).toList();
    if (outsideTail.isEmpty()) {
      return;
    }
    Layout parsed = awaitLayout();
    if (parsed == null || parsed.chunksByStart().isEmpty()) {
      return;
    }
    int furthest = -1;
    for (ByteRange read : outsideTail) {
      for (ColumnChunk chunk : touched(parsed, read)) {
        history.learn(parsed.fingerprint(), chunk.dottedPath());
        furthest = Math.max(furthest, chunk.rowGroup());
      }
    }
    if (furthest >= 0) {
      switch (settings.prefetchMode()) {
        case ALL -> prefetchRowGroups(parsed, furthest + 1, parsed.lastRowGroup());
        case ROW_GROUP -> prefetchRowGroups(parsed, furthest + 1, furthest + 1);
        default -> {}
      }
    }
  }

  private static List<ColumnChunk> touched(Layout parsed, ByteRange read) {
    Map.Entry<Long, ColumnChunk> entry = parsed.chunksByStart().floorEntry(read.start());
    Long from = entry != null ? entry.getKey() : parsed.chunksByStart().firstKey();
    List<ColumnChunk> touched = new ArrayList<>();
    for (ColumnChunk chunk : parsed.chunksByStart().tailMap(from, true).values()) {
      if (chunk.range().start() > read.end()) {
        break;
      }
      if (chunk.range().end() >= read.start()) {
        touched.add(chunk);
      }
    }
    return touched;
  }

  /**
   * The layout, waiting briefly: a reader past the footer has the tail, so only parsing is left.
   */
  private Layout awaitLayout() throws IOException {
    try {
      return layout.get(FOOTER_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while parsing the footer of " + file);
    } catch (Exception e) {
      return null;
    }
  }

  private void predictAtOpen(Layout parsed) {
    if (parsed == null) {
      return;
    }
    switch (settings.prefetchMode()) {
      case ALL -> prefetchRowGroups(parsed, 0, parsed.lastRowGroup());
      case ROW_GROUP -> prefetchRowGroups(parsed, 0, Math.min(1, parsed.lastRowGroup()));
      default -> {}
    }
  }

  /**
   * Prefetches the learned columns' chunks of row groups {@code from} to {@code through} that were
   * not prefetched before, chunks close together in one run.
   */
  private void prefetchRowGroups(Layout parsed, int from, int through) {
    Set<String> learned = history.learned(parsed.fingerprint());
    if (learned.isEmpty()) {
      return;
    }
    List<ByteRange> wanted = new ArrayList<>();
    for (int rowGroup = from; rowGroup <= Math.min(through, parsed.lastRowGroup()); rowGroup++) {
      for (ColumnChunk chunk : parsed.chunksByRowGroup().get(rowGroup)) {
        if (learned.contains(chunk.dottedPath()) && prefetchedChunks.add(chunk.range().start())) {
          wanted.add(chunk.range());
        }
      }
    }
    wanted.sort(Comparator.comparingLong(ByteRange::start));
    for (ByteRange run : ByteRanges.coalesce(wanted, settings.mergeGap())) {
      if (!prefetchQuietly(run)) {
        return;
      }
    }
  }

  /**
   * Starts GETs for {@code range}; returns false if they could not be started (no memory, or the
   * stream is closing), which only means less is prefetched.
   */
  private boolean prefetchQuietly(ByteRange range) {
    try {
      return prefetcher.prefetch(range);
    } catch (IOException e) {
      return false;
    }
  }

  private Layout layoutOf(ParquetFooter footer) {
    NavigableMap<Long, ColumnChunk> byStart = new TreeMap<>();
    List<List<ColumnChunk>> byRowGroup = new ArrayList<>();
    for (int i = 0; i < footer.metadata().getRow_groups().size(); i++) {
      byRowGroup.add(new ArrayList<>());
    }
    for (ColumnChunk chunk : footer.columnChunks()) {
      byStart.put(chunk.range().start(), chunk);
      byRowGroup.get(chunk.rowGroup()).add(chunk);
    }
    return new Layout(footer, SchemaFingerprint.of(footer.metadata()), byStart, byRowGroup);
  }

  private CompletableFuture<ParquetFooter> footerFrom(ByteRange tailRange, byte[] tailBytes) {
    try {
      int metadataLength = ParquetFooter.metadataLength(tailBytes, file);
      ByteRange metadata =
          ParquetFooter.metadataRange(prefetcher.objectLength(), metadataLength, file);
      if (tailRange.contains(metadata)) {
        int offset = (int) (metadata.start() - tailRange.start());
        return CompletableFuture.completedFuture(
            ParquetFooter.parse(tailBytes, offset, metadataLength));
      }
      ByteRange missing = ByteRange.of(metadata.start(), tailRange.start() - 1);
      return prefetcher
          .fetch(missing)
          .thenApplyAsync(head -> joined(head, tailBytes, metadataLength), parser);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static ParquetFooter joined(byte[] head, byte[] tailBytes, int metadataLength) {
    byte[] block = new byte[metadataLength];
    System.arraycopy(head, 0, block, 0, head.length);
    System.arraycopy(tailBytes, 0, block, head.length, metadataLength - head.length);
    try {
      return ParquetFooter.parse(block, 0, metadataLength);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }
}
