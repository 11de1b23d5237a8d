package io.seekwell.client;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ErrorKind;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A limit of requests in flight, adaptive (AIMD) for the requests to one bucket, fixed for the
 * connections of one client (whose permits are always given back with {@link Outcome#OTHER}). A
 * request sent after the last cut that is throttled (HTTP 503 SlowDown, 429) cuts the limit to
 * {@value #CUT} of what was in flight, so one burst of throttled answers cuts once. Each success
 * while at least half the limit is in flight raises it by one over the limit, so it grows by about
 * one per round trip and does not grow while it is not what holds requests back. The limit stays
 * from 1 to the configured most, where it starts. Requests over the limit wait in two queues,
 * demand before prefetch, without a thread.
 *
 * <p>Design notes (thread-safety): lock-free. {@code inFlight} and the limit (a double's bits) are
 * atomics changed by compare-and-set; waiters are in concurrent queues and {@code waiting} counts
 * them. A permit is taken at once when nobody waits and the limit allows. Otherwise the caller
 * queues, then drains. Every change that may let a waiter go (a waiter queued, a permit given back,
 * the limit raised) is followed by a drain by the thread that made it. The drain runs on one thread
 * at a time (the {@code drains} counter: a thread that finds a drain running asks it for one more
 * pass instead of waiting) and hands free places to the waiters still waiting, demand first. A
 * waiter is granted by completing its future, on the draining thread.
 */
final class ConcurrencyLimit {

  /** What the limit becomes, as a fraction of the requests in flight, when one is throttled. */
  static final double CUT = 0.75;

  private final String what;
  private final int most;
  private final Ticker ticker;
  private final Metrics metrics;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong limitBits;
  private final AtomicLong lastCutNanos;
  private final Queue<Waiter> demand = new ConcurrentLinkedQueue<>();
  private final Queue<Waiter> prefetch = new ConcurrentLinkedQueue<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger drains = new AtomicInteger();

  /**
   * A limit of {@code what} ("bucket b", "connections"), starting at and never above {@code most}.
   */
  ConcurrencyLimit(String what, int most, Ticker ticker, Metrics metrics) {
    if (most < 1) {
      throw new IllegalArgumentException("most must be >= 1, was " + most);
    }
    this.what = what;
    this.most = most;
    this.ticker = ticker;
    this.metrics = metrics;
    this.limitBits = new AtomicLong(Double.doubleToLongBits(most));
    this.lastCutNanos = new AtomicLong(ticker.nanos() - 1);
  }

  /** How a request that held a permit ended. */
  enum Outcome {
    /** The store answered. */
    SUCCESS,
    /** The store said to slow down. */
    THROTTLED,
    /** Anything else: an error, a timeout, a cancellation; the limit does not move. */
    OTHER;

    /** How a request ended that answered, or failed with {@code failure} if not null. */
    static Outcome of(Throwable failure) {
      if (failure == null) {
        return SUCCESS;
      }
      return ErrorKind.of(failure) == ErrorKind.THROTTLED ? THROTTLED : OTHER;
    }
  }

  /** A place among the requests in flight; given back once, with how its request ended. */
  final class Permit {
    private final long grantedNanos = ticker.nanos();
    private final AtomicBoolean released = new AtomicBoolean();

    private Permit() {}

    /**
     * Gives the place back; only the first call counts. True if this cut the limit (a throttled
     * answer to a request sent after the last cut).
     */
    boolean release(Outcome outcome) {
      if (!released.compareAndSet(false, true)) {
        return false;
      }
      int before = inFlight.getAndDecrement();
      boolean cut = false;
      if (outcome == Outcome.THROTTLED) {
        cut = cut(before);
      } else if (outcome == Outcome.SUCCESS && before * 2 >= limit()) {
        raise();
      }
      if (waiting.get() > 0) {
        drain();
      }
      return cut;
    }

    private boolean cut(int inFlightBefore) {
      long last = lastCutNanos.get();
      if (grantedNanos - last <= 0 || !lastCutNanos.compareAndSet(last, ticker.nanos())) {
        return false; // sent before the last cut, which this answer does not add to
      }
      double target = Math.max(1, Math.min(limit(), inFlightBefore) * CUT);
      limitBits.getAndUpdate(bits -> Double.doubleToLongBits(Math.min(target, bitsToLimit(bits))));
      metrics.increment(Metric.CONCURRENCY_LIMIT_CUTS);
      return true;
    }

    private void raise() {
      limitBits.getAndUpdate(
          bits -> {
            double limit = bitsToLimit(bits);
            return Double.doubleToLongBits(Math.min(most, limit + 1 / limit));
          });
    }
  }

  /** A request waiting for a permit. */
  private final class Waiter {
    private final CompletableFuture<Permit> granted = new CompletableFuture<>();
    private final long queuedNanos = ticker.nanos();
  }

  /**
   * A permit, at once if the limit allows and nobody waits, else when one is free and the waiters
   * before it (every demand waiter, for a prefetch) have theirs. Completing the future with an
   * exception or cancelling it gives up the wait.
   */
  CompletableFuture<Permit> acquire(boolean isPrefetch) {
    if (waiting.get() == 0 && tryReserve()) {
      return CompletableFuture.completedFuture(new Permit());
    }
    Waiter waiter = new Waiter();
    Queue<Waiter> queue = isPrefetch ? prefetch : demand;
    waiting.incrementAndGet();
    queue.add(waiter);
    metrics.increment(Metric.REQUESTS_QUEUED);
    waiter.granted.whenComplete(
        (permit, failure) -> {
          if (failure != null && queue.remove(waiter)) {
            waiting.decrementAndGet();
          }
        });
    drain();
    return waiter.granted;
  }

  /** The limit now, rounded down. */
  int limit() {
    return (int) bitsToLimit(limitBits.get());
  }

  /** Requests holding a permit now. */
  int inFlight() {
    return inFlight.get();
  }

  /** Requests waiting for a permit now. */
  int waiting() {
    return waiting.get();
  }

  @Override
  public String toString() {
    return what
        + ": limit "
        + limit()
        + " of at most "
        + most
        + ", "
        + inFlight()
        + " in flight, "
        + waiting()
        + " waiting";
  }

  private static double bitsToLimit(long bits) {
    return Double.longBitsToDouble(bits);
  }

  private boolean tryReserve() {
    while (true) {
      int now = inFlight.get();
      if (now >= Math.max(1, limit())) {
        return false;
      }
      if (inFlight.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  private void drain() {
    if (drains.getAndIncrement() != 0) {
      return; // the running drain makes one more pass
    }
    int passes = 1;
    do {
      grantWhileFree();
      passes = drains.addAndGet(-passes);
    } while (passes != 0);
  }

  private void grantWhileFree() {
    while (waiting.get() > 0 && tryReserve()) {
      Waiter next = demand.poll();
      if (next == null) {
        next = prefetch.poll();
      }
      if (next == null) {
        // Counted but not queued yet: its own drain, after it is queued, comes through here.
        inFlight.decrementAndGet();
        return;
      }
      waiting.decrementAndGet();
      Permit permit = new Permit();
      if (next.granted.complete(permit)) {
        metrics.add(Metric.QUEUED_NANOS, permit.grantedNanos - next.queuedNanos);
      } else {
        inFlight.decrementAndGet(); // it gave up its wait; the place goes to the next one
      }
    }
  }
}
