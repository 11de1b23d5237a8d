package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.logical.SchemaFingerprint;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * What a stream over a Parquet file reads ahead. At open: one GET for the file's tail (footer and
 * page indexes), and for a large file one more for the bytes before it; the footer is parsed on the
 * plug-in's executor as soon as the tail is in (fetching the rest of a footer longer than the tail
 * if needed). Then the columns readers of files with the same schema read before are prefetched
 * (the first two row groups, or all, as the mode says); the first read of each column chunk teaches
 * its column, which is then prefetched for the row groups after it (the next one, or all) and
 * remembered for the next file. Each chunk is prefetched at most once. A stream thread only waits
 * (briefly) for the footer to be parsed, never for I/O it has not already waited for.
 *
 * <p>A read costs a binary search of the chunks' starts, and nothing (no allocation) when it lies
 * in the footer's tail or in the chunk the last read was inside of.
 */
final class ParquetReadStrategy implements ReadStrategy {

  private static final long FOOTER_WAIT_SECONDS = 2;

  private final Prefetcher prefetcher;
  private final ParquetSettings settings;
  private final Executor parser;
  private final ColumnHistory history;
  private final FooterOnlyHistory footerOnlyHistory;
  private final boolean footerOnly;
  private final String file;
  private final Consumer<ParquetFooter> footerListener;
  private final Set<Long> prefetchedChunks = ConcurrentHashMap.newKeySet();
  private ByteRange footerTail;
  // The footer's length with its trailer, once parsed; the first read at or past it is the footer.
  private volatile long footerBytes;
  // Close and the footer's parse, in either order: the second of them learns what the reader did.
  private final AtomicInteger closedAndParsed = new AtomicInteger();
  private volatile long lowestReadAtClose = Long.MAX_VALUE;
  // Touched by stream calls only (serialized by the stream): the layout once a read needed it,
  // which of its chunks reads have touched, and the last chunk a read was inside of.
  private Layout known;
  private boolean[] touched;
  private int lastChunk = -1;
  private boolean fetchedRest;
  private long lowestRead = Long.MAX_VALUE;
  // Read-ahead through a cold row group: where a read continuing the last would start, what the
  // current run of such reads does, how far bytes were asked for, up to where, and the window.
  private long expectedNext = -1;
  private Run run = Run.NONE;
  private long aheadFrontier;
  private long aheadLimit;
  private long aheadWindow;
  private CompletableFuture<Layout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));

  /**
   * The parsed footer, its schema's fingerprint, its chunks sorted by where they start (with those
   * starts, to search), and its chunks by row group; built once per stream when the footer is
   * parsed, so that a read only searches arrays.
   */
  private record Layout(
      ParquetFooter footer,
      String fingerprint,
      Chunk[] chunks,
      long[] starts,
      List<List<Chunk>> chunksByRowGroup,
      long[] rowGroupEnds) {

    int lastRowGroup() {
      return chunksByRowGroup.size() - 1;
    }
  }

  /**
   * What a run of reads, each continuing the last, does about the bytes ahead of it: no run yet;
   * nothing (its chunks are predicted, or no memory was found); reading ahead.
   */
  private enum Run {
    NONE,
    NOT_AHEAD,
    READING_AHEAD
  }

  /** A column chunk as reads need it: its column's dotted name, row group and bytes. */
  private record Chunk(String column, int rowGroup, long start, long end) {

    boolean overlaps(long from, long to) {
      return start <= to && end >= from;
    }

    boolean holds(long from, long to) {
      return start <= from && to <= end;
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
      FooterOnlyHistory footerOnlyHistory,
      Consumer<ParquetFooter> footerListener) {
    this.prefetcher = prefetcher;
    this.footerListener = footerListener;
    this.settings = settings;
    this.parser = parser;
    this.history = history;
    this.footerOnlyHistory = footerOnlyHistory;
    this.file = prefetcher.objectName();
    this.footerOnly =
        settings.footerOnlyPrediction()
            && settings.isSmall(prefetcher.objectLength())
            && footerOnlyHistory.predictsFooterOnly(file);
  }

  /** A small file is fetched whole unless its readers are expected to read only its footer. */
  @Override
  public boolean fetchesSmallObjectWhole() {
    return !footerOnly;
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    if (length < ParquetFooter.TRAILER) {
      return;
    }
    long footerSize =
        footerOnly
            ? Math.max(ParquetFooter.TRAILER, Math.min(length, footerOnlyHistory.tailGuess(file)))
            : settings.footerSize(length);
    footerTail = ByteRange.ofLength(length - footerSize, footerSize);
    CompletableFuture<byte[]> footerBytes = prefetcher.fetch(footerTail);
    long beforeFooter = footerOnly ? 0 : settings.tailSize(length) - footerSize;
    if (beforeFooter > 0) {
      // In parallel: the footer is parsed as soon as its own (smaller) GET is in.
      prefetchQuietly(ByteRange.ofLength(footerTail.start() - beforeFooter, beforeFooter), false);
    }
    layout =
        footerBytes
            .thenComposeAsync(bytes -> footerFrom(footerTail, bytes), parser)
            .thenApply(this::layoutOf)
            .whenComplete((parsed, failure) -> predictAtOpen(parsed));
    layout.thenAccept(
        parsed -> {
          closedOrParsed();
          footerListener.accept(parsed.footer());
        });
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
    if (length <= 0) {
      return;
    }
    lowestRead = Math.min(lowestRead, position);
    boolean continues = position == expectedNext;
    expectedNext = position + length;
    if (inTail(position)) {
      return;
    }
    if (insideLastChunk(position, position + length - 1)) {
      readAheadInColdRowGroup(known, continues, position, length);
      return;
    }
    fetchRestOfFooterOnlyFile();
    Layout parsed = layout();
    if (parsed != null) {
      prefetchAfter(parsed, touch(parsed, position, position + length - 1));
      readAheadInColdRowGroup(parsed, continues, position, length);
    }
  }

  /**
   * A reader streaming through chunks no prediction fetched (the first row group a schema's reader
   * reads, through a stream without vectored reads, reads the columns it wants as runs of adjacent
   * chunks, one buffer after another): while its reads follow each other, bytes ahead of it up to
   * the end of the row group are asked for, in a window that starts at twice the read and doubles
   * as the reader catches up, so that the run's GETs are in flight together rather than one per
   * read. A read that does not continue the last one ends the run. Allocates nothing while a run
   * goes on.
   */
  private void readAheadInColdRowGroup(
      Layout parsed, boolean continues, long position, long length) {
    long end = position + length;
    if (!continues) {
      run = Run.NONE;
      return;
    }
    if (run == Run.NONE) {
      int chunk = chunkAt(parsed, end - 1);
      if (chunk < 0 || prefetchedChunks.contains(parsed.chunks()[chunk].start())) {
        run = Run.NOT_AHEAD;
        return;
      }
      run = Run.READING_AHEAD;
      aheadLimit = parsed.rowGroupEnds()[parsed.chunks()[chunk].rowGroup()];
      aheadWindow = 2 * length;
      aheadFrontier = end;
    }
    if (run != Run.READING_AHEAD) {
      return;
    }
    aheadFrontier = Math.max(aheadFrontier, end);
    if (aheadFrontier > aheadLimit || aheadFrontier - end >= aheadWindow / 2) {
      return;
    }
    long last = Math.min(aheadLimit, end + aheadWindow - 1);
    if (prefetchQuietly(ByteRange.of(aheadFrontier, last), true)) {
      aheadFrontier = last + 1;
      aheadWindow *= 2;
    } else {
      run = Run.NOT_AHEAD; // no memory for it: the reader goes on without
    }
  }

  /** The index of the chunk that holds byte {@code position}, or -1 if none does. */
  private static int chunkAt(Layout parsed, long position) {
    int i = Arrays.binarySearch(parsed.starts(), position);
    i = i >= 0 ? i : -i - 2;
    return i >= 0 && parsed.chunks()[i].end() >= position ? i : -1;
  }

  @Override
  public void beforeVectoredRead(List<ByteRange> ranges) throws IOException {
    Layout parsed = null;
    int furthest = -1;
    for (ByteRange range : ranges) {
      lowestRead = Math.min(lowestRead, range.start());
      if (!inTail(range.start())) {
        fetchRestOfFooterOnlyFile();
        parsed = parsed != null ? parsed : layout();
        if (parsed == null) {
          return;
        }
        furthest = Math.max(furthest, touch(parsed, range.start(), range.end()));
      }
    }
    if (parsed != null) {
      prefetchAfter(parsed, furthest);
    }
  }

  /**
   * The first read past the tail of a small file opened for its footer only: the rest of the file
   * is fetched with one GET.
   */
  private void fetchRestOfFooterOnlyFile() {
    if (footerOnly && !fetchedRest && footerTail.start() > 0) {
      fetchedRest = true;
      prefetchQuietly(ByteRange.of(0, footerTail.start() - 1), false);
    }
  }

  @Override
  public void close() {
    lowestReadAtClose = lowestRead;
    closedOrParsed();
  }

  /**
   * Once the stream is closed and its footer parsed: a small file teaches the files beside it
   * whether its reader read data or only the footer (and how long that was).
   */
  private void closedOrParsed() {
    if (closedAndParsed.incrementAndGet() != 2 || !settings.isSmall(prefetcher.objectLength())) {
      return;
    }
    long lowest = lowestReadAtClose;
    if (lowest == Long.MAX_VALUE) {
      return; // nothing was read
    }
    if (lowest < prefetcher.objectLength() - footerBytes) {
      footerOnlyHistory.readsData(file);
    } else {
      footerOnlyHistory.footerOnly(file, footerBytes);
    }
  }

  private boolean inTail(long position) {
    return footerTail == null || footerTail.contains(position);
  }

  /** Whether bytes {@code from} to {@code to} lie in the chunk the last read was inside of. */
  private boolean insideLastChunk(long from, long to) {
    return lastChunk >= 0 && known.chunks()[lastChunk].holds(from, to);
  }

  /** The layout with its chunks, or null if the footer could not be parsed (in time). */
  private Layout layout() throws IOException {
    if (known == null) {
      Layout parsed = awaitLayout();
      if (parsed == null || parsed.chunks().length == 0) {
        return null;
      }
      known = parsed;
      touched = new boolean[parsed.chunks().length];
    }
    return known;
  }

  /**
   * Learns the columns of the chunks bytes {@code from} to {@code to} touch for the first time;
   * returns the furthest row group among those, or -1 if every chunk they touch was touched before.
   */
  private int touch(Layout parsed, long from, long to) {
    Chunk[] chunks = parsed.chunks();
    int first = Arrays.binarySearch(parsed.starts(), from);
    first = first >= 0 ? first : Math.max(0, -first - 2);
    int furthest = -1;
    for (int i = first; i < chunks.length && chunks[i].start() <= to; i++) {
      Chunk chunk = chunks[i];
      if (!chunk.overlaps(from, to)) {
        continue;
      }
      if (chunk.holds(from, to)) {
        lastChunk = i;
      }
      if (!touched[i]) {
        touched[i] = true;
        history.learn(parsed.fingerprint(), chunk.column());
        furthest = Math.max(furthest, chunk.rowGroup());
      }
    }
    return furthest;
  }

  /** Prefetches the learned columns for the row groups after {@code furthest}, as the mode says. */
  private void prefetchAfter(Layout parsed, int furthest) {
    if (furthest >= 0) {
      switch (settings.prefetchMode()) {
        case ALL -> prefetchRowGroups(parsed, furthest + 1, parsed.lastRowGroup());
        case ROW_GROUP -> prefetchRowGroups(parsed, furthest + 1, furthest + 1);
        default -> {}
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
      for (Chunk chunk : parsed.chunksByRowGroup().get(rowGroup)) {
        if (learned.contains(chunk.column()) && prefetchedChunks.add(chunk.start())) {
          wanted.add(ByteRange.of(chunk.start(), chunk.end()));
        }
      }
    }
    wanted.sort(Comparator.comparingLong(ByteRange::start));
    for (ByteRange run : ByteRanges.coalesce(wanted, settings.mergeGap())) {
      if (!prefetchQuietly(run, true)) {
        return;
      }
    }
  }

  /**
   * Starts GETs for {@code range}, column chunks the stream reads {@code once}; returns false if
   * they could not be started (no memory, or the stream is closing), which only means less is
   * prefetched.
   */
  private boolean prefetchQuietly(ByteRange range, boolean once) {
    try {
      return once ? prefetcher.prefetchOnce(range) : prefetcher.prefetch(range);
    } catch (IOException e) {
      return false;
    }
  }

  private Layout layoutOf(ParquetFooter footer) {
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
    return new Layout(
        footer,
        SchemaFingerprint.of(footer.metadata().getSchema()),
        chunks,
        starts,
        byRowGroup,
        rowGroupEnds);
  }

  private CompletableFuture<ParquetFooter> footerFrom(ByteRange tailRange, byte[] tailBytes) {
    try {
      int metadataLength = ParquetFooter.metadataLength(tailBytes, file);
      footerBytes = metadataLength + ParquetFooter.TRAILER;
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
