package io.seekwell.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A token bucket that bounds the extra load hedging puts on the store. Every GET sent earns {@code
 * ratio} of a token, up to a burst of {@value #BURST} tokens (the bucket starts full, so a cold
 * client can hedge); a hedge costs one. When a hedge answers first, every token that try's hedges
 * took comes back, and one more: its first attempt was stuck, the copies (some of which may have
 * stalled too) cost the store nothing it would not have spent on retries, and the extra token pays
 * for a copy that will not win, as copies sent at the earlier deadline of a stalling store ({@link
 * ResponseTimes}) often do not. So hedges that did not help stay within {@code ratio} of all GETs
 * plus one per hedge that did (plus the burst): on a healthy store, where hedges hardly ever win,
 * that is {@code ratio}; on a store with many stalled connections hedging goes on for as long as it
 * wins. Lock-free and thread-safe.
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

  /** A hedge answered first: the {@code taken} tokens its try's hedges took, and one more. */
  void hedgeWon(int taken) {
    tokens.accumulateAndGet((taken + 1) * UNIT, (now, add) -> Math.min(BURST * UNIT, now + add));
  }
}
