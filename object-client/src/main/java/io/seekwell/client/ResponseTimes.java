package io.seekwell.client;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What GETs through one client have shown so far, and the deadlines derived from it:
 *
 * <ul>
 *   <li>the <b>hedge deadline</b>: a GET whose response headers have not come by then is sent
 *       again. It is {@value #HEDGE_FACTOR} times the {@value #HEDGE_PERCENTILE} percentile of the
 *       last {@value #WINDOW} times to first byte, never below the configured floor nor above the
 *       first-byte timeout. Hedging near the 90th percentile sends a copy for at most about one GET
 *       in ten of a healthy store, and in practice far fewer: the factor puts the deadline well
 *       past the bulk of the distribution. Before any GET has answered, the deadline is {@link
 *       #COLD_HEDGE_NANOS} (AWS's guidance for re-sending a small GET is about two seconds; a
 *       quarter of a second is above the 99th percentile of S3's answers, a new connection
 *       included, and keeps a cold factory from waiting long on a stalled one); until {@value
 *       #MIN_SAMPLES} have, it is {@value #FEW_SAMPLES_FACTOR} times their median, within the same
 *       bounds, so that a cold reader learns the store's pace from its first answers (the median,
 *       not the slowest: a client's first answer also carries its connection's set-up).
 *       <p>While connections are seen to stall (at least {@value #STALLING_WINS} of the last
 *       {@value #CALLS_WINDOW} requests had an attempt that stalled, see {@link #recordAnswer}),
 *       the deadline is the {@value #HEDGE_PERCENTILE} percentile itself, with no factor and no
 *       floor: each stalled request then costs about one healthy response time more, rather than
 *       one and a half times the slow end of it. The copies this sends for the slowest tenth of
 *       healthy requests are paid for by the copies that win ({@link HedgeBudget}); on a healthy
 *       store, where copies hardly ever win, this pace is never reached. Until {@value
 *       #MIN_SAMPLES} have answered, it is the slowest answer so far.
 *   <li>the <b>headers timeout</b>: an attempt whose response headers have not come by then is
 *       given up (copies sent at the hedge deadline go on). It is {@value #STALLED_HEADERS_FACTOR}
 *       times the hedge deadline, and at least twice the configured stall floor, so that no answer
 *       of a healthy store is cut short. While connections are seen to stall, the floor is the
 *       stall floor itself: a copy has then usually answered long before, and a blocking client's
 *       stalled call holds a pooled connection until this timeout. It doubles with each try of the
 *       same request, so that a store that has become slow for every request is still waited for,
 *       and it never exceeds the first-byte timeout. A blocking client aborts its call then ({@link
 *       SdkCalls#abortingWhenGivenUp}), so a stalled call holds its thread and its connection for a
 *       second or two, not until the socket times out.
 *   <li>the <b>stall deadline</b>: a body that delivers nothing for this long is cut and resumed.
 *       It is {@value #STALL_FACTOR} times the time the median observed throughput needs for one 64
 *       KiB read, never below the configured floor (about a second: far longer than any healthy
 *       pause between packets) nor above the read idle timeout.
 * </ul>
 *
 * Thread-safe and lock-free: every GET records into rings of atomics, and the deadlines are
 * volatile. The deadlines are worked out again after each of the first {@value #WINDOW} samples,
 * then after every {@value #RECOMPUTE_EVERY}th, from the ring as it is then (a sample written
 * meanwhile may or may not be in it), so that no GET sorts a window and none waits for another.
 */
final class ResponseTimes {

  static final int WINDOW = 128;
  static final int MIN_SAMPLES = 8;
  static final double HEDGE_PERCENTILE = 0.9;
  static final double HEDGE_FACTOR = 1.5;
  static final long COLD_HEDGE_NANOS = 250_000_000L;
  static final int FEW_SAMPLES_FACTOR = 3;
  static final int STALL_FACTOR = 16;
  static final int CALLS_WINDOW = 64;
  static final int STALLING_WINS = 2;
  static final int TYING_STALLS = 8;
  static final int STALLED_HEADERS_FACTOR = 4;
  static final int RECOMPUTE_EVERY = 16;
  private static final int READ_SIZE = 64 * 1024;

  private final long hedgeFloorNanos;
  private final long hedgeCeilingNanos;
  private final long stallFloorNanos;
  private final long stallCeilingNanos;
  private final AtomicLongArray firstByte = new AtomicLongArray(WINDOW);
  private final AtomicLongArray bytesPerNanoBits = new AtomicLongArray(WINDOW);
  private final AtomicIntegerArray stallSeen = new AtomicIntegerArray(CALLS_WINDOW);
  private final AtomicInteger firstByteCount = new AtomicInteger();
  private final AtomicInteger callCount = new AtomicInteger();
  private final AtomicInteger recentStalls = new AtomicInteger();
  private final AtomicInteger throughputCount = new AtomicInteger();
  private volatile long hedgeDeadline;
  private volatile long stallingHedgeDeadline;
  private volatile boolean stalling;
  private volatile boolean tying;
  private volatile long stallDeadline;

  ResponseTimes(ObjectClientConfiguration configuration) {
    this.hedgeFloorNanos = configuration.hedgeFloor().toNanos();
    this.hedgeCeilingNanos = Math.max(hedgeFloorNanos, configuration.firstByteTimeout().toNanos());
    this.stallFloorNanos = configuration.stallFloor().toNanos();
    this.stallCeilingNanos = Math.max(stallFloorNanos, configuration.readIdleTimeout().toNanos());
    this.hedgeDeadline = clamp(COLD_HEDGE_NANOS, hedgeFloorNanos, hedgeCeilingNanos);
    this.stallingHedgeDeadline = hedgeDeadline;
    this.stallDeadline = stallFloorNanos;
  }

  /** A GET's response headers came {@code nanos} after it was sent. */
  void recordFirstByte(long nanos) {
    int count = firstByteCount.incrementAndGet();
    firstByte.set((count - 1) % WINDOW, nanos);
    if (!isRecomputed(count)) {
      return;
    }
    long[] sorted = new long[Math.min(count, WINDOW)];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = firstByte.get(i);
    }
    Arrays.sort(sorted);
    if (count < MIN_SAMPLES) {
      hedgeDeadline =
          clamp(
              Math.min(COLD_HEDGE_NANOS, FEW_SAMPLES_FACTOR * sorted[sorted.length / 2]),
              hedgeFloorNanos,
              hedgeCeilingNanos);
      stallingHedgeDeadline = Math.min(hedgeDeadline, sorted[sorted.length - 1]);
    } else {
      long percentile = percentile(sorted, HEDGE_PERCENTILE);
      hedgeDeadline = clamp((long) (percentile * HEDGE_FACTOR), hedgeFloorNanos, hedgeCeilingNanos);
      stallingHedgeDeadline = Math.min(hedgeDeadline, percentile);
    }
  }

  private static boolean isRecomputed(int samples) {
    return samples <= WINDOW || samples % RECOMPUTE_EVERY == 0;
  }

  /**
   * A request was answered; {@code stalled} if one of its attempts was seen to stall: a copy sent
   * at the hedge deadline answered first, or a tied copy answered a hedge deadline or more before
   * the other.
   */
  void recordAnswer(boolean stalled) {
    int slot = callCount.getAndIncrement() % CALLS_WINDOW;
    int now = stalled ? 1 : 0;
    int stalls = recentStalls.addAndGet(now - stallSeen.getAndSet(slot, now));
    stalling = stalls >= STALLING_WINS;
    tying = stalls >= TYING_STALLS;
  }

  private static long percentile(long[] sorted, double percentile) {
    return sorted[(int) Math.ceil(percentile * sorted.length) - 1];
  }

  /** A body delivered {@code bytes} in {@code nanos} after its headers. */
  void recordBody(long bytes, long nanos) {
    if (bytes < READ_SIZE || nanos <= 0) {
      return;
    }
    int count = throughputCount.incrementAndGet();
    bytesPerNanoBits.set((count - 1) % WINDOW, Double.doubleToLongBits((double) bytes / nanos));
    if (!isRecomputed(count)) {
      return;
    }
    double[] sorted = new double[Math.min(count, WINDOW)];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = Double.longBitsToDouble(bytesPerNanoBits.get(i));
    }
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2];
    stallDeadline =
        clamp((long) (STALL_FACTOR * READ_SIZE / median), stallFloorNanos, stallCeilingNanos);
  }

  /**
   * Whether small requests are sent twice at once: while at least {@value #TYING_STALLS} of the
   * last {@value #CALLS_WINDOW} requests stalled, one request in eight waits a hedge deadline when
   * sent alone, and a tied pair waits only when both of its connections stall.
   */
  boolean tying() {
    return tying;
  }

  /** How long a GET may wait for its headers before a copy is sent. */
  long hedgeDeadlineNanos() {
    return stalling ? stallingHedgeDeadline : hedgeDeadline;
  }

  /**
   * How long an attempt of a request's {@code tryNumber}-th try (1 for the first) may wait for its
   * response headers before it is given up.
   */
  long headersTimeoutNanos(int tryNumber) {
    long floor = stalling ? stallFloorNanos : 2 * stallFloorNanos;
    long base = Math.max(floor, STALLED_HEADERS_FACTOR * hedgeDeadline);
    long timeout = Math.min(hedgeCeilingNanos, base);
    for (int doubled = 1; doubled < tryNumber && timeout < hedgeCeilingNanos; doubled++) {
      timeout = timeout > hedgeCeilingNanos / 2 ? hedgeCeilingNanos : timeout * 2;
    }
    return timeout;
  }

  /** How long a body may deliver nothing before it is cut and resumed. */
  long stallDeadlineNanos() {
    return stallDeadline;
  }

  private static long clamp(long value, long floor, long ceiling) {
    return Math.max(floor, Math.min(ceiling, value));
  }
}
