package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a stream over a Parquet file reads ahead. At open: one GET for the file's tail (footer and
 * page indexes), one more if the footer is longer than that, and the footer is parsed on the
 * plug-in's executor. Then the columns readers of files with the same schema read before are
 * prefetched (the row group being read and the next, or all, as the mode says), and every read is
 * matched to the column chunks it touches to learn for the next file. A stream thread only waits
 * (briefly) for the footer to be parsed, never for I/O it has not already waited for.
 */
final class ParquetReadStrategy implements ReadStrategy {

  private static final long FOOTER_WAIT_SECONDS = 2;

  private final Prefetcher prefetcher;
  private final ParquetSettings settings;
  private final Executor parser;
  private final ColumnHistory history;
  private final String file;
  private final AtomicInteger prefetchedThrough = new AtomicInteger(-1);
  private ByteRange tail;
  private CompletableFuture<Layout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));

  /** The parsed footer, its schema's fingerprint and its chunks by start. */
  private record Layout(
      ParquetFooter footer, String fingerprint, NavigableMap<Long, ColumnChunk> chunksByStart) {}

  ParquetReadStrategy(
      Prefetcher prefetcher, ParquetSettings settings, Executor parser, ColumnHistory history) {
    this.prefetcher = prefetcher;
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
    long tailSize = settings.tailSize(length);
    tail = ByteRange.ofLength(length - tailSize, tailSize);
    layout =
        prefetcher
            .fetch(tail)
            .thenComposeAsync(bytes -> footerFrom(tail, bytes), parser)
            .thenApply(this::layoutOf)
            .whenComplete((parsed, failure) -> predictAtOpen(parsed));
  }

  /** The parsed footer, once the tail is in; fails if the file is not valid Parquet. */
  CompletableFuture<ParquetFooter> footer() {
    return layout.thenApply(Layout::footer);
  }

  @Override
  public void beforeRead(long position, long length) throws IOException {
    observe(position, length);
  }

  @Override
  public void beforePositionalRead(long position, long length) throws IOException {
    observe(position, length);
  }

  private void observe(long position, long length) throws IOException {
    if (tail == null || length <= 0 || tail.contains(position)) {
      return;
    }
    Layout parsed = awaitLayout();
    if (parsed == null || parsed.chunksByStart().isEmpty()) {
      return;
    }
    long end = position + length - 1;
    Map.Entry<Long, ColumnChunk> entry = parsed.chunksByStart().floorEntry(position);
    Long from = entry != null ? entry.getKey() : parsed.chunksByStart().firstKey();
    for (ColumnChunk chunk : parsed.chunksByStart().tailMap(from, true).values()) {
      if (chunk.range().start() > end) {
        break;
      }
      if (chunk.range().end() >= position) {
        history.learn(parsed.fingerprint(), chunk.dottedPath());
        if (settings.prefetchMode() == PrefetchMode.ROW_GROUP) {
          prefetchRowGroups(parsed, chunk.rowGroup() + 1);
        }
      }
    }
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
    int lastRowGroup = parsed.footer().metadata().getRow_groups().size() - 1;
    switch (settings.prefetchMode()) {
      case ALL -> prefetchRowGroups(parsed, lastRowGroup);
      case ROW_GROUP -> prefetchRowGroups(parsed, Math.min(1, lastRowGroup));
      default -> {}
    }
  }

  /** Prefetches the learned columns of every row group up to {@code through} not yet asked for. */
  private void prefetchRowGroups(Layout parsed, int through) {
    int from = prefetchedThrough.getAndAccumulate(through, Math::max) + 1;
    if (from > through) {
      return;
    }
    Set<String> learned = history.learned(parsed.fingerprint());
    if (learned.isEmpty()) {
      return;
    }
    List<ByteRange> wanted = new ArrayList<>();
    for (ColumnChunk chunk : parsed.chunksByStart().values()) {
      if (chunk.rowGroup() >= from
          && chunk.rowGroup() <= through
          && learned.contains(chunk.dottedPath())) {
        wanted.add(chunk.range());
      }
    }
    for (ByteRange run : ByteRanges.coalesce(wanted, settings.mergeGap())) {
      try {
        if (!prefetcher.prefetch(run)) {
          return;
        }
      } catch (IOException e) {
        return;
      }
    }
  }

  private Layout layoutOf(ParquetFooter footer) {
    NavigableMap<Long, ColumnChunk> byStart = new TreeMap<>();
    for (ColumnChunk chunk : footer.columnChunks()) {
      byStart.put(chunk.range().start(), chunk);
    }
    return new Layout(footer, SchemaFingerprint.of(footer.metadata()), byStart);
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
