package io.seekwell.physical;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether a read's own miss may be widened past the read-ahead size to what the link carries
 * cheaply ({@link RequestPlanner#window}): while enough earlier widenings were read. A widening
 * pays when a later read lands in its extra bytes, saving a GET; it costs its extra bytes' transfer
 * and copying whether read or not. A saved GET is worth about {@link #PAYOFF} widenings' extra
 * bytes: on S3 a GET waits about 25 ms for its first byte where the extra bytes take at most a
 * tenth of that; on a store nearby, where the first byte comes in a few milliseconds, the extra
 * bytes cost the client about a fifth of a GET's CPU. So each widening spends one credit and each
 * widening later read earns {@link #PAYOFF}, up to {@link #CAP}; with no credit left, a miss is
 * widened only every {@link #PROBE_EVERY}th time, so that reads that begin to land near each other
 * earn it back. Widenings go on while more than about one in eight is read; random 4 KiB reads
 * spread over large objects soon stop widening, and after reads that clustered at most {@link #CAP}
 * widenings in a row go unread.
 *
 * <p><b>Design notes.</b> One per factory: what its streams' reads have shown, over every object.
 * Thread-safe and lock-free, and used outside any object's plan lock: the credit and the count of
 * misses held back are atomics, updated once per decided miss and once per widening read (the first
 * block of a widened miss carries the credit, and hands it back once).
 */
final class WideningCredit {

  /** Credits a widening later read earns; each widening spends one. */
  static final int PAYOFF = 8;

  /** The most credit kept: how many widenings in a row may go unread once reads stop clustering. */
  static final int CAP = 4 * PAYOFF;

  /** With no credit, every this many misses one is widened all the same. */
  static final int PROBE_EVERY = 16;

  private final AtomicInteger credit = new AtomicInteger(PAYOFF);
  private final AtomicInteger heldBack = new AtomicInteger();
  private final Metrics metrics;

  /** A credit that starts at {@link #PAYOFF} and counts widenings read in {@code metrics}. */
  WideningCredit(Metrics metrics) {
    this.metrics = metrics;
  }

  /** What becomes of a read's own miss that the link would widen. */
  enum Decision {
    /** Widened, for one credit. */
    WIDEN,
    /** Widened with no credit left: the probe of its turn. */
    PROBE,
    /** Not widened: no credit left, and not a probe's turn. */
    HOLD_BACK
  }

  /**
   * Decides a miss the link would widen, taking one credit if there is one; a miss held back is
   * counted ({@link Metric#MISS_WIDENINGS_HELD_BACK}). The credit is taken when the miss is
   * planned, so that misses planned at once never widen on the same credit; a miss whose extra
   * bytes turn out to be cached or in flight already spends it all the same.
   */
  Decision decide() {
    if (credit.getAndUpdate(c -> Math.max(c - 1, 0)) > 0) {
      return Decision.WIDEN;
    }
    if (heldBack.incrementAndGet() % PROBE_EVERY == 0) {
      return Decision.PROBE;
    }
    metrics.increment(Metric.MISS_WIDENINGS_HELD_BACK);
    return Decision.HOLD_BACK;
  }

  /** A later read landed in a widening's extra bytes: {@link #PAYOFF} credits, up to the cap. */
  void earn() {
    metrics.increment(Metric.MISS_WIDENINGS_READ);
    credit.getAndUpdate(c -> Math.min(c + PAYOFF, CAP));
  }
}
