package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.logical.BriefWait;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.QuietPrefetch;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.logical.StructureReadahead;
import io.seekwell.logical.StructureReadahead.Start;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a stream over a Parquet file reads ahead. At open: one GET for the file's tail (footer and
 * page indexes: as many bytes as the last file parsed beside it needed after its column chunks and
 * a quarter more ({@link TailHistory}), or the configured size), and for a large file with no file
 * parsed beside it one more for the bytes before it (at most the prefetcher's request size); the
 * footer is parsed on the plug-in's executor as soon as the tail is in ({@link
 * ParquetFooterFetch}). The stream's first read of column chunks checks what readers of files with
 * the same schema read before: if they read every column it reads, their columns are prefetched
 * (from its row group, that one and the next, or all, as the mode says), but for those whose chunk
 * in that row group lies before the end of that read and was not read; if not, the queries have
 * turned to other columns: nothing is predicted from them, and from then on the stream predicts
 * only the columns it read itself. So a stream that reads only the footer (an engine opens each
 * file once for it) fetches no column, and a new query's first file fetches none of the last
 * query's columns. The first read of each column chunk teaches its column, which is then prefetched
 * for the row groups after it (the next one, or all) and remembered for the next file. Each chunk
 * is prefetched at most once. A reader streaming through chunks nothing prefetched is read ahead of
 * to the end of the row group ({@link StructureReadahead}, reads following on exactly). A stream
 * thread only waits (briefly) for the footer to be parsed, never for I/O it has not already waited
 * for.
 *
 * <p>A read costs a binary search of the chunks' starts, and nothing (no allocation) when it lies
 * in the footer's tail or in the chunk the last read was inside of.
 *
 * <p>Concurrency: the read and close calls come from the stream's thread, one at a time, and own
 * the fields below that are not final or volatile, {@code prefetchedChunks} among them. The parser
 * thread completes {@code layout}, which the stream thread reads through; {@link FooterOnlyOutcome}
 * says how close and parse meet.
 */
final class ParquetReadStrategy implements ReadStrategy {

  private static final Logger LOG = LoggerFactory.getLogger(ParquetReadStrategy.class);

  private final Prefetcher prefetcher;
  private final ParquetSettings settings;
  private final ColumnHistory.Reader columnsRead;
  private final FooterOnlyHistory footerOnlyHistory;
  private final TailHistory tails;
  private final FooterMetrics footers;
  private final ParquetFooterFetch footerFetch;
  private final FooterOnlyOutcome outcome;
  private final StructureReadahead readahead;
  private final boolean footerOnly;
  private final String file;
  private final Set<Long> prefetchedChunks = new HashSet<>();
  private ByteRange footerTail;
  // Stream thread only: the layout once a read needed it, which of its chunks reads have touched,
  // the last chunk a read was inside of, and the lowest byte read; the check of the first read of
  // columns.
  private ParquetLayout known;
  private boolean[] touched;
  private final FirstColumnsCheck firstRead;
  private int lastChunk = -1;
  private boolean fetchedRest;
  private long lowestRead = Long.MAX_VALUE;
  private CompletableFuture<ParquetLayout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));

  /**
   * A strategy for one stream, parsing on {@code parser}; {@code history}, {@code
   * footerOnlyHistory} and {@code tails} are shared by the plug-in's streams, and {@code footers}
   * counts what became of the footer.
   */
  ParquetReadStrategy(
      Prefetcher prefetcher,
      ParquetSettings settings,
      Executor parser,
      ColumnHistory history,
      FooterOnlyHistory footerOnlyHistory,
      TailHistory tails,
      FooterMetrics footers) {
    this.prefetcher = prefetcher;
    this.settings = settings;
    this.columnsRead = history.newReader();
    this.footerOnlyHistory = footerOnlyHistory;
    this.tails = tails;
    this.footers = footers;
    this.file = prefetcher.objectName();
    this.firstRead = new FirstColumnsCheck(file);
    this.footerFetch = new ParquetFooterFetch(prefetcher, parser);
    boolean small = settings.isSmall(prefetcher.objectLength());
    this.outcome = new FooterOnlyOutcome(footerOnlyHistory, file, prefetcher.objectLength(), small);
    this.readahead =
        new StructureReadahead(
            prefetcher, () -> 0, Start.FIRST_FOLLOWING_READ, this::coldRowGroupEnd);
    this.footerOnly =
        settings.footerOnlyPrediction() && small && footerOnlyHistory.predictsFooterOnly(file);
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
    OptionalLong learned =
        footerOnly || settings.isSmall(length) ? OptionalLong.empty() : tails.guess(file);
    long footerSize =
        footerOnly
            ? Math.max(ParquetFooter.TRAILER, Math.min(length, footerOnlyHistory.tailGuess(file)))
            : Math.max(
                ParquetFooter.TRAILER,
                Math.min(settings.footerSize(length), learned.orElse(Long.MAX_VALUE)));
    footerTail = ByteRange.ofLength(length - footerSize, footerSize);
    if (learned.isPresent()) {
      LOG.debug(
          "{}: fetches a tail of {} bytes, as much as the last file beside it needed after its"
              + " data and a quarter more",
          file,
          footerSize);
    }
    CompletableFuture<byte[]> tailBytes = prefetcher.fetch(footerTail);
    // No more than one read-ahead request: with a small memory limit, the tail stays cached while
    // the file is open and would leave too little for the chunks. None once the tail is learned.
    long beforeFooter =
        footerOnly || learned.isPresent()
            ? 0
            : Math.min(settings.tailSize(length) - footerSize, prefetcher.requestSize());
    if (beforeFooter > 0) {
      // In parallel: the footer is parsed as soon as its own (smaller) GET is in.
      QuietPrefetch.of(
          prefetcher, ByteRange.ofLength(footerTail.start() - beforeFooter, beforeFooter));
    }
    layout =
        footerFetch
            .layout(footerTail, tailBytes)
            .whenComplete(
                (parsed, failure) -> {
                  if (failure != null) {
                    footers.unparsed(file, "the footer", failure);
                  }
                });
    layout.thenAccept(
        parsed -> {
          outcome.parsed(parsed.footerBytes());
          tails.needed(file, Math.max(parsed.footerBytes(), length - parsed.dataEnd()));
          footers.parsed();
        });
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
    long end = position + length;
    if (inTail(position)) {
      readahead.skipped(end);
      return;
    }
    if (insideLastChunk(position, end - 1)) {
      readahead.onRead(position, end);
      return;
    }
    fetchRestOfFooterOnlyFile();
    ParquetLayout parsed = layout();
    if (parsed == null) {
      readahead.skipped(end);
      return;
    }
    int furthest = touch(parsed, position, end - 1);
    predictOnFirstColumns(parsed, end - 1);
    prefetchAfter(parsed, furthest);
    readahead.onRead(position, end);
  }

  /**
   * Where a run of reads, the first ending at {@code end} (exclusive), is read ahead of to: the end
   * of the row group of the chunk it is in (exclusive), or -1 if that chunk was prefetched (or it
   * is in none), as then its row group's chunks are predicted.
   */
  private long coldRowGroupEnd(long end) {
    int chunk = known.chunkAt(end - 1);
    if (chunk < 0 || prefetchedChunks.contains(known.chunks()[chunk].start())) {
      return -1;
    }
    return known.rowGroupEnds()[known.chunks()[chunk].rowGroup()] + 1;
  }

  @Override
  public void beforeVectoredRead(List<ByteRange> ranges) throws IOException {
    ParquetLayout parsed = null;
    int furthest = -1;
    long last = -1;
    for (ByteRange range : ranges) {
      lowestRead = Math.min(lowestRead, range.start());
      if (!inTail(range.start())) {
        fetchRestOfFooterOnlyFile();
        parsed = parsed != null ? parsed : layout();
        if (parsed == null) {
          return;
        }
        furthest = Math.max(furthest, touch(parsed, range.start(), range.end()));
        last = Math.max(last, range.end());
      }
    }
    if (parsed != null) {
      predictOnFirstColumns(parsed, last);
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
      QuietPrefetch.of(prefetcher, ByteRange.of(0, footerTail.start() - 1));
    }
  }

  @Override
  public void close() {
    columnsRead.close();
    outcome.closed(lowestRead);
  }

  private boolean inTail(long position) {
    return footerTail == null || footerTail.contains(position);
  }

  /** Whether bytes {@code from} to {@code to} lie in the chunk the last read was inside of. */
  private boolean insideLastChunk(long from, long to) {
    return lastChunk >= 0 && known.chunks()[lastChunk].holds(from, to);
  }

  /**
   * The layout with its chunks, waiting briefly (a reader past the footer has the tail, so only
   * parsing is left); null if the footer could not be parsed (in time).
   */
  private ParquetLayout layout() throws IOException {
    if (known == null) {
      ParquetLayout parsed = BriefWait.await(layout, null, "the footer", file);
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
  private int touch(ParquetLayout parsed, long from, long to) {
    ParquetLayout.Chunk[] chunks = parsed.chunks();
    int furthest = -1;
    for (int i = Math.max(0, parsed.lastChunkStartingBy(from));
        i < chunks.length && chunks[i].start() <= to;
        i++) {
      ParquetLayout.Chunk chunk = chunks[i];
      if (!chunk.overlaps(from, to)) {
        continue;
      }
      if (chunk.holds(from, to)) {
        lastChunk = i;
      }
      if (!touched[i]) {
        touched[i] = true;
        firstRead.touched(chunk, () -> columnsRead.predicted(parsed.fingerprint()));
        columnsRead.learn(parsed.fingerprint(), chunk.column());
        furthest = Math.max(furthest, chunk.rowGroup());
      }
    }
    return furthest;
  }

  /** Prefetches the learned columns for the row groups after {@code furthest}, as the mode says. */
  private void prefetchAfter(ParquetLayout parsed, int furthest) {
    if (furthest >= 0) {
      Set<String> columns =
          firstRead.turned() ? columnsRead.own() : columnsRead.predicted(parsed.fingerprint());
      prefetchFrom(parsed, furthest + 1, 1, columns);
    }
  }

  /**
   * Prefetches {@code columns} from row group {@code from} on: {@code count} row groups, or all
   * that follow, as the mode says.
   */
  private void prefetchFrom(ParquetLayout parsed, int from, int count, Set<String> columns) {
    switch (settings.prefetchMode()) {
      case ALL -> prefetchRowGroups(parsed, from, parsed.lastRowGroup(), columns);
      case ROW_GROUP -> prefetchRowGroups(parsed, from, from + count - 1, columns);
      default -> {}
    }
  }

  /**
   * Once the stream's first read of columns, ending at {@code last}, is in: see {@link
   * FirstColumnsCheck}.
   */
  private void predictOnFirstColumns(ParquetLayout parsed, long last) {
    Set<String> columns = firstRead.decide(parsed, last);
    if (columns != null) {
      prefetchFrom(parsed, firstRead.rowGroup(), 2, columns);
    }
  }

  /**
   * Prefetches the chunks of {@code columns} in row groups {@code from} to {@code through} that
   * were not prefetched before, chunks close together in one run; runs that find no memory wait for
   * the reads before them to free some ({@link io.seekwell.logical.Prefetcher#prefetchInTurn}).
   */
  private void prefetchRowGroups(ParquetLayout parsed, int from, int through, Set<String> columns) {
    if (columns.isEmpty()) {
      return;
    }
    List<ByteRange> wanted = new ArrayList<>();
    for (int rowGroup = from; rowGroup <= Math.min(through, parsed.lastRowGroup()); rowGroup++) {
      for (ParquetLayout.Chunk chunk : parsed.chunksByRowGroup().get(rowGroup)) {
        if (columns.contains(chunk.column()) && prefetchedChunks.add(chunk.start())) {
          wanted.add(ByteRange.of(chunk.start(), chunk.end()));
        }
      }
    }
    if (wanted.isEmpty()) {
      return;
    }
    wanted.sort(Comparator.comparingLong(ByteRange::start));
    List<ByteRange> runs = ByteRanges.coalesce(wanted, settings.mergeGap());
    LOG.debug(
        "{}: predicts columns {} of row groups {} to {}: {} chunks in {} runs",
        file,
        columns,
        from,
        through,
        wanted.size(),
        runs.size());
    for (ByteRange run : runs) {
      QuietPrefetch.inTurn(prefetcher, run);
    }
  }
}
