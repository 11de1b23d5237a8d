package io.seekwell.orc;

import com.github.benmanes.caffeine.cache.Cache;
import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.logical.SchemaFingerprint;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.orc.OrcProto;

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
 *       gap (as one that reads alternate columns does), is read ahead of through the stripe's data,
 *       in a window that starts at twice the last step and doubles as the reader catches up.
 * </ul>
 *
 * <p>Called by one thread at a time (the stream's); that thread waits only, and briefly, for a tail
 * or stripe footer the reader itself has read to be parsed. Other work runs on the threads that
 * receive the bytes; it only asks for bytes, which the prefetcher refuses once the stream is
 * closed.
 */
final class OrcReadStrategy implements ReadStrategy {

  private static final long PARSE_WAIT_SECONDS = 2;

  private final Prefetcher prefetcher;
  private final OrcSettings settings;
  private final ColumnHistory history;
  private final Cache<String, Boolean> wholeStripes;
  private final String file;
  // The start of every data stream prefetched: each is asked for once.
  private final Set<Long> claimedStreams = ConcurrentHashMap.newKeySet();
  private CompletableFuture<Layout> layout =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));
  // Touched by stream calls only: the stripe the last read was in, where the last read of its data
  // ended, and a read-ahead through it (the first byte not asked for, or -1; and the window).
  private int currentStripe = -1;
  private long lastDataReadEnd = -1;
  private long aheadFrontier = -1;
  private long aheadWindow;
  // Where the tail fetched at open starts: reads from there on are the reader reading it.
  private long tailGuessStart;

  /**
   * The parsed tail: the postscript (for the codec), the footer, its stripes, its schema's
   * fingerprint, the history's key of each column, and each stripe's data streams once asked for.
   */
  private record Layout(
      OrcTail tail,
      OrcProto.Footer footer,
      List<Stripe> stripes,
      String fingerprint,
      String[] columnKeys,
      AtomicReferenceArray<CompletableFuture<StripeStreams>> streams) {}

  /**
   * A strategy for one stream; {@code history} and {@code wholeStripes} (whether readers of a
   * schema read its stripes' data whole) are shared by the plug-in's streams.
   */
  OrcReadStrategy(
      Prefetcher prefetcher,
      OrcSettings settings,
      ColumnHistory history,
      Cache<String, Boolean> wholeStripes) {
    this.prefetcher = prefetcher;
    this.settings = settings;
    this.history = history;
    this.wholeStripes = wholeStripes;
    this.file = prefetcher.objectName();
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    long guessLength = Math.min(length, settings.tailPrefetchSize());
    if (guessLength == 0) {
      layout = CompletableFuture.failedFuture(new IOException(file + " is empty"));
      return;
    }
    tailGuessStart = length - guessLength;
    ByteRange guess = ByteRange.ofLength(tailGuessStart, guessLength);
    layout = prefetcher.fetch(guess).thenCompose(end -> layoutFrom(guess, end));
    layout.thenAccept(
        parsed -> {
          prefetchStripe(parsed, 0);
          if (!history.learned(parsed.fingerprint()).isEmpty()) {
            prefetchStripe(parsed, 1);
          }
        });
  }

  /** The file's footer, once the tail is in; fails if the file is not ORC. */
  CompletableFuture<OrcProto.Footer> footer() {
    return layout.thenApply(Layout::footer);
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
    Layout parsed = await(layout, null, "the tail");
    if (parsed == null) {
      return;
    }
    int index = Stripe.indexOf(parsed.stripes(), position);
    if (index < 0) {
      return; // the file's header or tail
    }
    if (index != currentStripe) {
      currentStripe = index;
      lastDataReadEnd = -1;
      aheadFrontier = -1;
      prefetchStripe(parsed, index);
      prefetchStripe(parsed, index + 1);
    }
    Stripe stripe = parsed.stripes().get(index);
    if (stripe.dataLength() == 0 || !stripe.data().contains(position)) {
      return; // indexes, read on demand; or the stripe's footer
    }
    long dataEnd = stripe.data().end() + 1;
    long end = Math.min(position + length, dataEnd);
    StripeStreams streams =
        await(streamsOf(parsed, index), StripeStreams.NONE, "the footer of stripe " + index);
    if (lastDataReadEnd < 0) {
      // The first read of the stripe's data: its learned streams are asked for before it, in case
      // the stripe's footer arrived only now and the thread that received it has not asked yet.
      prefetchLearned(parsed, stripe, streams, true);
    }
    boolean unpredicted = learn(parsed, streams, position, end - 1);
    if (mayReadAhead) {
      readAhead(unpredicted, position, end, dataEnd);
    }
    lastDataReadEnd = end;
  }

  /**
   * Learns the columns of the data streams bytes {@code from} to {@code to} touch; returns whether
   * any of them was not known to readers of this schema.
   */
  private boolean learn(Layout parsed, StripeStreams streams, long from, long to) {
    Set<String> learned = history.learned(parsed.fingerprint());
    boolean[] unknown = {false};
    streams.columnsTouched(
        from,
        to,
        column -> {
          String key = parsed.columnKeys()[column];
          if (!learned.contains(key)) {
            history.learn(parsed.fingerprint(), key);
            unknown[0] = true;
          }
        });
    return unknown[0];
  }

  /**
   * A reader reading unpredicted columns with small steps between its reads: bytes ahead of it, up
   * to the end of the stripe's data, are asked for in a window that starts at twice the step and
   * doubles as the reader catches up. A read beyond the window's reach ends it.
   */
  private void readAhead(boolean unpredicted, long position, long end, long dataEnd) {
    long gap = prefetcher.mergeGap();
    if (aheadFrontier >= 0 && position > aheadFrontier + gap) {
      aheadFrontier = -1;
    }
    if (aheadFrontier < 0) {
      boolean shortStep =
          lastDataReadEnd >= 0 && position >= lastDataReadEnd && position - lastDataReadEnd <= gap;
      if (!unpredicted || !shortStep) {
        return;
      }
      aheadFrontier = end;
      aheadWindow = 2 * (end - lastDataReadEnd);
    }
    aheadFrontier = Math.max(aheadFrontier, end);
    if (aheadFrontier >= dataEnd || aheadFrontier - end >= aheadWindow / 2) {
      return;
    }
    long last = Math.min(dataEnd, end + aheadWindow) - 1;
    if (prefetchQuietly(ByteRange.of(aheadFrontier, last))) {
      aheadFrontier = last + 1;
      aheadWindow *= 2;
    } else {
      aheadFrontier = -1; // no memory for it: the reader goes on without
    }
  }

  /**
   * Fetches stripe {@code index}'s footer, if there is such a stripe, and once it is in prefetches
   * the learned columns' data streams not prefetched before, merged where the gaps are small. When
   * readers of this schema read stripes whole, the stripe's data and footer are asked for first, as
   * one range: the footer then comes with the data.
   */
  private void prefetchStripe(Layout parsed, int index) {
    if (index >= parsed.stripes().size()) {
      return;
    }
    Stripe stripe = parsed.stripes().get(index);
    if (stripe.dataLength() > 0
        && Boolean.TRUE.equals(wholeStripes.getIfPresent(parsed.fingerprint()))) {
      prefetchQuietly(ByteRange.of(stripe.data().start(), stripe.footer().end()));
    }
    streamsOf(parsed, index).thenAccept(streams -> prefetchLearned(parsed, stripe, streams, false));
  }

  /**
   * Prefetches the learned columns' streams of {@code stripe} not prefetched before ({@code
   * evenIfClaimed}: all of them, of which the physical layer fetches what is neither cached nor in
   * flight), merged where the gaps are small; and notes whether, merged, they are the stripe's
   * whole data.
   */
  private void prefetchLearned(
      Layout parsed, Stripe stripe, StripeStreams streams, boolean evenIfClaimed) {
    Set<String> learned = history.learned(parsed.fingerprint());
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
      if (!prefetchQuietly(run)) {
        return;
      }
    }
  }

  /** Stripe {@code index}'s data streams: its footer is fetched and parsed once. */
  private CompletableFuture<StripeStreams> streamsOf(Layout parsed, int index) {
    CompletableFuture<StripeStreams> known = parsed.streams().get(index);
    if (known != null) {
      return known;
    }
    CompletableFuture<StripeStreams> made = new CompletableFuture<>();
    if (!parsed.streams().compareAndSet(index, null, made)) {
      return parsed.streams().get(index);
    }
    Stripe stripe = parsed.stripes().get(index);
    prefetcher
        .fetch(stripe.footer())
        .thenApply(
            bytes ->
                StripeStreams.of(
                    stripe, stripeFooter(parsed, index, bytes), parsed.columnKeys().length))
        .whenComplete(
            (streams, failure) -> made.complete(failure == null ? streams : StripeStreams.NONE));
    return made;
  }

  private OrcProto.StripeFooter stripeFooter(Layout parsed, int index, byte[] bytes) {
    try {
      return OrcProto.StripeFooter.parseFrom(
          OrcCompression.decompress(parsed.tail().postScript(), bytes));
    } catch (IOException e) {
      throw new CompletionException(
          new IOException(file + ": the footer of stripe " + index + " does not parse", e));
    }
  }

  /**
   * The value {@code parsing} completes with, waiting briefly: a reader past the tail has read the
   * tail, and one reading a stripe's data has read the stripe's footer, so only parsing is left.
   * {@code otherwise} if that fails or takes too long: then less is prefetched.
   */
  private <T> T await(CompletableFuture<T> parsing, T otherwise, String what)
      throws InterruptedIOException {
    try {
      return parsing.get(PARSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while parsing " + what + " of " + file);
    } catch (ExecutionException | TimeoutException e) {
      return otherwise;
    }
  }

  /**
   * Starts GETs for {@code range}, bytes the stream reads once; false if they could not be started
   * (no memory, or the stream is closing), which only means less is prefetched.
   */
  private boolean prefetchQuietly(ByteRange range) {
    try {
      return prefetcher.prefetchOnce(range);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The layout, from the tail's first {@code fetched} bytes {@code end}, once the rest of the tail
   * (if any) is in too.
   */
  private CompletableFuture<Layout> layoutFrom(ByteRange fetched, byte[] end) {
    long length = prefetcher.objectLength();
    try {
      OrcTail tail = OrcTail.parse(file, length, end);
      long tailStart = length - tail.length();
      if (tailStart >= fetched.start()) {
        return CompletableFuture.completedFuture(layoutOf(tail, end));
      }
      return prefetcher
          .fetch(ByteRange.ofLength(tailStart, fetched.start() - tailStart))
          .thenApply(rest -> layoutOf(tail, concat(rest, end)));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private Layout layoutOf(OrcTail tail, byte[] end) {
    OrcProto.Footer footer;
    try {
      footer = tail.footer(file, end);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
    List<Stripe> stripes = Stripe.of(footer);
    String[] columnKeys = new String[footer.getTypesCount()];
    Arrays.setAll(columnKeys, Integer::toString);
    return new Layout(
        tail,
        footer,
        stripes,
        SchemaFingerprint.of(footer.getTypesList()),
        columnKeys,
        new AtomicReferenceArray<>(stripes.size()));
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
