package io.seekwell.orc;

import com.github.benmanes.caffeine.cache.Cache;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a stream over an ORC file reads ahead.
 *
 * <ul>
 *   <li>At open: the tail, with one GET of {@code tail.prefetch.size} bytes from the end; once it
 *       is in, its postscript tells the tail's length, and a longer tail's rest is fetched with a
 *       second GET. The footer is parsed, and the first stripe's footer fetched.
 *   <li>A read in stripe N fetches the footer of stripe N + 1, so that ORC's reader, which starts
 *       each stripe with its footer, finds it cached.
 *   <li>The first read of a stripe's data streams teaches their columns, remembered per schema for
 *       the next file. Entering a stripe (at open, stripe 0) prefetches the learned columns' data
 *       streams of that stripe and the next, merged where the gap between them is cheaper to read
 *       than a new request ({@link Prefetcher#mergeGap()}). When, merged, they are a stripe's whole
 *       data, stripes are from then on asked for whole, data and footer in one range, before their
 *       footers are fetched. Row indexes and bloom filters are read only when the reader asks for
 *       them.
 *   <li>A reader reading columns nothing predicted, each read following the last within the merge
 *       gap (as one that reads alternate columns does), is read ahead of through the stripe's data
 *       ({@link StructureReadahead}, with the merge gap as its gap; any such read may start it).
 * </ul>
 *
 * <p>Concurrency: called by one thread at a time (the stream's), which owns the fields that are not
 * final; it waits only, and briefly, for a tail or stripe footer the reader itself has read to be
 * parsed. Other work runs on the threads that receive the bytes; it only asks for bytes, which the
 * prefetcher refuses once the stream is closed. {@code claimedStreams}, a concurrent set, and the
 * layout's stripe slots ({@link StripeFooterFetch}) are what both change.
 */
final class OrcReadStrategy implements ReadStrategy {

  private final Prefetcher prefetcher;
  private final OrcSettings settings;
  private final ColumnHistory.Reader columnsRead;
  private final Cache<String, Boolean> wholeStripes;
  private final FooterMetrics footers;
  private final StripeFooterFetch stripeFooters;
  private final StructureReadahead readahead;
  private final String file;
  // The start of every data stream prefetched: each is asked for once.
  private final Set<Long> claimedStreams = ConcurrentHashMap.newKeySet();
  private CompletableFuture<OrcLayout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));
  // Stream thread only: the stripe the last read was in, whether its data was read yet, and of the
  // last read of its data, whether it touched columns nothing predicted and where the data ends.
  private int currentStripe = -1;
  private boolean readStripeData;
  private boolean lastReadUnpredicted;
  private long dataEnd;
  // Where the tail fetched at open starts: reads from there on are the reader reading it.
  private long tailGuessStart;

  /**
   * A strategy for one stream; {@code history} and {@code wholeStripes} (whether readers of a
   * schema read its stripes' data whole) are shared by the plug-in's streams, and {@code footers}
   * counts what became of the tail and the stripe footers.
   */
  OrcReadStrategy(
      Prefetcher prefetcher,
      OrcSettings settings,
      ColumnHistory history,
      Cache<String, Boolean> wholeStripes,
      FooterMetrics footers) {
    this.prefetcher = prefetcher;
    this.settings = settings;
    this.columnsRead = history.newReader();
    this.wholeStripes = wholeStripes;
    this.footers = footers;
    this.file = prefetcher.objectName();
    this.stripeFooters = new StripeFooterFetch(prefetcher, footers);
    this.readahead =
        new StructureReadahead(
            prefetcher,
            prefetcher::mergeGap,
            Start.ANY_FOLLOWING_READ,
            end -> lastReadUnpredicted ? dataEnd : -1);
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    long guessLength = Math.min(length, settings.tailPrefetchSize());
    tailGuessStart = length - guessLength;
    if (guessLength == 0) {
      layout = CompletableFuture.failedFuture(new IOException(file + " is empty"));
    } else {
      ByteRange guess = ByteRange.ofLength(tailGuessStart, guessLength);
      layout = prefetcher.fetch(guess).thenCompose(end -> OrcLayout.from(prefetcher, guess, end));
    }
    layout.whenComplete(
        (parsed, failure) -> {
          if (failure != null) {
            footers.unparsed(file, "the tail", failure);
            return;
          }
          footers.parsed();
          prefetchStripe(parsed, 0);
          if (!columnsRead.predicted(parsed.fingerprint()).isEmpty()) {
            prefetchStripe(parsed, 1);
          }
        });
  }

  @Override
  public void close() {
    columnsRead.close();
  }

  @Override
  public void beforeRead(long position, long length) throws IOException {
    beforePositionalRead(position, length);
  }

  @Override
  public void beforePositionalRead(long position, long length) throws IOException {
    onRead(position, length, true);
  }

  /** A vectored read asks for all it needs at once: it is learned from, never read ahead of. */
  @Override
  public void beforeVectoredRead(List<ByteRange> ranges) throws IOException {
    for (ByteRange range : ranges) {
      onRead(range.start(), range.length(), false);
    }
  }

  private void onRead(long position, long length, boolean mayReadAhead) throws IOException {
    if (length <= 0 || position >= tailGuessStart) {
      return; // the tail, which is fetched at open
    }
    OrcLayout parsed = BriefWait.await(layout, null, "the tail", file);
    if (parsed == null) {
      return;
    }
    int index = Stripe.indexOf(parsed.stripes(), position);
    if (index < 0) {
      return; // the file's header or tail
    }
    if (index != currentStripe) {
      currentStripe = index;
      readStripeData = false;
      readahead.reset();
      prefetchStripe(parsed, index);
      prefetchStripe(parsed, index + 1);
    }
    Stripe stripe = parsed.stripes().get(index);
    if (stripe.dataLength() == 0 || !stripe.data().contains(position)) {
      return; // indexes, read on demand; or the stripe's footer
    }
    dataEnd = stripe.data().end() + 1;
    long end = Math.min(position + length, dataEnd);
    StripeStreams streams =
        BriefWait.await(
            stripeFooters.streams(parsed, index),
            StripeStreams.NONE,
            "the footer of stripe " + index,
            file);
    if (!readStripeData) {
      // The first read of the stripe's data: its learned streams are asked for before it, in case
      // the stripe's footer arrived only now and the thread that received it has not asked yet.
      readStripeData = true;
      prefetchLearned(parsed, stripe, streams, true);
    }
    lastReadUnpredicted = learn(parsed, streams, position, end - 1);
    if (mayReadAhead) {
      readahead.onRead(position, end);
    } else {
      readahead.skipped(end);
    }
  }

  /**
   * Learns the columns of the data streams bytes {@code from} to {@code to} touch; returns whether
   * any of them was not predicted.
   */
  private boolean learn(OrcLayout parsed, StripeStreams streams, long from, long to) {
    Set<String> predicted = columnsRead.predicted(parsed.fingerprint());
    boolean[] unknown = {false};
    streams.columnsTouched(
        from,
        to,
        column -> {
          String key = parsed.columnKeys()[column];
          columnsRead.learn(parsed.fingerprint(), key);
          unknown[0] |= !predicted.contains(key);
        });
    return unknown[0];
  }

  /**
   * Fetches stripe {@code index}'s footer, if there is such a stripe, and once it is in prefetches
   * the learned columns' data streams not prefetched before, merged where the gaps are small. When
   * readers of this schema read stripes whole, the stripe's data and footer are asked for first, as
   * one range: the footer then comes with the data.
   */
  private void prefetchStripe(OrcLayout parsed, int index) {
    if (index >= parsed.stripes().size()) {
      return;
    }
    Stripe stripe = parsed.stripes().get(index);
    if (stripe.dataLength() > 0
        && Boolean.TRUE.equals(wholeStripes.getIfPresent(parsed.fingerprint()))) {
      QuietPrefetch.once(prefetcher, ByteRange.of(stripe.data().start(), stripe.footer().end()));
    }
    stripeFooters
        .streams(parsed, index)
        .thenAccept(streams -> prefetchLearned(parsed, stripe, streams, false));
  }

  /**
   * Prefetches the learned columns' streams of {@code stripe} not prefetched before ({@code
   * evenIfClaimed}: all of them, of which the physical layer fetches what is neither cached nor in
   * flight), merged where the gaps are small; and notes whether, merged, they are the stripe's
   * whole data.
   */
  private void prefetchLearned(
      OrcLayout parsed, Stripe stripe, StripeStreams streams, boolean evenIfClaimed) {
    Set<String> learned = columnsRead.predicted(parsed.fingerprint());
    if (learned.isEmpty() || streams == StripeStreams.NONE || stripe.dataLength() == 0) {
      return;
    }
    long gap = prefetcher.mergeGap();
    List<ByteRange> wanted = streams.streamsOf(c -> learned.contains(parsed.columnKeys()[c]));
    List<ByteRange> merged = ByteRanges.coalesce(wanted, gap);
    ByteRange data = stripe.data();
    wholeStripes.put(
        parsed.fingerprint(),
        merged.size() == 1
            && merged.get(0).start() - data.start() <= gap
            && data.end() - merged.get(0).end() <= gap);
    List<ByteRange> unclaimed =
        wanted.stream().filter(range -> claimedStreams.add(range.start())).toList();
    for (ByteRange run : evenIfClaimed ? merged : ByteRanges.coalesce(unclaimed, gap)) {
      QuietPrefetch.inTurn(prefetcher, run);
    }
  }
}
