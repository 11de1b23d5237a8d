package io.seekwell.client;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;

/**
 * What one call has tried so far, shared by the decorator that retries it ({@link RetryingCalls})
 * and the one below that sends each try as a hedged exchange ({@link HedgingObjectClient}): the
 * retrier counts the tries, the hedger numbers every attempt (tries, hedges and the tied copy),
 * counts the hedges, says which tries were tied and which attempt failed last, and how, so that
 * both name the attempts alike in their logs and say what was tried in the call's messages. It
 * travels down as the request's {@link RequestOptions#attempt()}: as such it is the call's latest
 * try.
 *
 * <p>Design notes (thread-safety): its lock ({@code synchronized}) guards the counts, the tied
 * tries and the last failed attempt; each method holds it for one short step and calls nothing
 * else, so it may be taken under a {@link HedgedExchange}'s lock. The retrier writes the tries (on
 * the caller's thread, then the scheduler's); the hedger writes the rest on whichever thread sends,
 * hedges or answers an attempt.
 */
final class CallTries implements RequestAttempt {

  private final long startNanos;
  private final long deadlineNanos;
  private int tries;
  private int numbered;
  private int hedges;
  private int tiedTries;
  private boolean firstTied;
  private boolean lastTryStalled;
  private String failing = "try 0";

  /** A call that started at {@code startNanos} and ends at {@code deadlineNanos}, not yet tried. */
  CallTries(long startNanos, long deadlineNanos) {
    this.startNanos = startNanos;
    this.deadlineNanos = deadlineNanos;
  }

  /**
   * The tries {@code options} carry, or those of a call that starts now, on {@code ticker}, and
   * makes its one try by {@code policy}'s deadline.
   */
  static CallTries of(RequestOptions options, Ticker ticker, RetryPolicy policy) {
    return options
        .attempt()
        .filter(CallTries.class::isInstance)
        .map(CallTries.class::cast)
        .orElseGet(
            () -> {
              long now = ticker.nanos();
              CallTries alone = new CallTries(now, now + policy.deadline().toNanos());
              alone.nextTry();
              return alone;
            });
  }

  long startNanos() {
    return startNanos;
  }

  @Override
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /** A try begins: how many have, this one included. */
  synchronized int nextTry() {
    tries++;
    failing = "try " + tries;
    return tries;
  }

  synchronized int tries() {
    return tries;
  }

  /** The number of the call's next attempt, of any kind. */
  synchronized int nextNumber() {
    return ++numbered;
  }

  /** A hedge is sent. */
  synchronized void hedged() {
    hedges++;
  }

  synchronized int hedges() {
    return hedges;
  }

  /** The call's latest try was sent twice at once (tied), as connections stall. */
  synchronized void tie() {
    tiedTries++;
    firstTied |= tries == 1;
  }

  /**
   * {@code attempt} failed its try: the last of its exchange, or with an error not retried; {@code
   * stalled} if an attempt of the try waited its whole headers timeout.
   */
  synchronized void failed(Attempt<?> attempt, boolean stalled) {
    failing = attempt.toString();
    lastTryStalled = stalled;
  }

  /** Whether an attempt of the try that failed last waited its whole headers timeout: stalled. */
  synchronized boolean lastTryStalled() {
    return lastTryStalled;
  }

  /**
   * The attempt that failed the latest try, as logs name it; the try itself ({@code try 2}) if the
   * client below did not say which.
   */
  synchronized String lastFailed() {
    return failing;
  }

  /** What the call tried, as its messages say it ({@link RetryPolicy#tried}). */
  synchronized String tried() {
    return RetryPolicy.tried(tries, tiedTries, firstTied, hedges);
  }

  /** The call's latest try ({@code try 2}), as a request still waiting for a place is logged. */
  @Override
  public synchronized String name() {
    return "try " + tries;
  }

  /**
   * A request of the call's latest try is sent: always allowed, as a try given up is cancelled
   * below, not here. Carried by each try, it hears once per try sent straight through a limiting
   * client (with no hedger between), and needs no word of it: each attempt below a hedger is asked
   * for itself.
   */
  @Override
  public boolean sent() {
    return true;
  }

  @Override
  public String toString() {
    return name();
  }
}
