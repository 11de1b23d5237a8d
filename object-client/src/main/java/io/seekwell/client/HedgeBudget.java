package io.seekwell.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket that bounds the extra load hedging puts on the store. Every GET sent earns {@code
 * ratio} of a token, up to a burst of {@value #BURST} tokens (the bucket starts full, so a cold
 * client can hedge); a hedge costs one. A hedge whose copy answered first gets its token back: it
 * replaced a request that was stuck, and cost the store nothing it would not have spent on a retry.
 * So hedges that did not help stay within {@code ratio} of all GETs (plus the burst), while a store
 * with many stalled connections can be hedged around for as long as hedging wins. Lock-free and
 * thread-safe.
 */
final class HedgeBudget {

  static final int BURST = 10;
  private static final long UNIT = 1_000_000;

  private final long earnedPerGet;
  private final AtomicLong tokens = new AtomicLong(BURST * UNIT);

  HedgeBudget(double ratio) {
    this.earnedPerGet = (long) (ratio * UNIT);
  }

  /** A GET was sent. */
  void earn() {
    tokens.accumulateAndGet(earnedPerGet, (now, add) -> Math.min(BURST * UNIT, now + add));
  }

  /** Takes a token for a hedge, if there is one. */
  boolean tryTake() {
    long now;
    do {
      now = tokens.get();
      if (now < UNIT) {
        return false;
      }
    } while (!tokens.compareAndSet(now, now - UNIT));
    return true;
  }

  /** A hedge answered first: its token comes back. */
  void refund() {
    tokens.accumulateAndGet(UNIT, (now, add) -> Math.min(BURST * UNIT, now + add));
  }
}
