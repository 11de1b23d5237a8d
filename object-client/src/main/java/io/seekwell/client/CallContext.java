package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link Call} of one {@link HedgingRetryingObjectClient} shares: its settings, time,
 * timer, response-time statistics, hedge budget, places and counters. Immutable; each part is
 * thread-safe on its own.
 *
 * @param freesConnectionOnCancel whether the wrapped client frees a connection when a call is
 *     cancelled ({@link io.seekwell.common.object.ObjectClient#freesConnectionOnCancel()})
 */
record CallContext(
    ObjectClientConfiguration configuration,
    RetryPolicy policy,
    Scheduler scheduler,
    Ticker ticker,
    ResponseTimes times,
    HedgeBudget budget,
    RequestPlaces places,
    RequestCounter counter,
    boolean freesConnectionOnCancel) {

  private static final Logger LOG = LoggerFactory.getLogger(CallContext.class);

  /**
   * The context of a client whose calls follow {@code policy} (and its configuration) and {@code
   * times}, with a new hedge budget and new places, counting in {@code metrics}.
   */
  static CallContext of(
      RetryPolicy policy,
      Scheduler scheduler,
      Ticker ticker,
      ResponseTimes times,
      Metrics metrics,
      boolean freesConnectionOnCancel) {
    ObjectClientConfiguration configuration = policy.configuration();
    return new CallContext(
        configuration,
        policy,
        scheduler,
        ticker,
        times,
        new HedgeBudget(configuration.hedgeBudget()),
        new RequestPlaces(configuration, ticker, metrics),
        new RequestCounter(metrics),
        freesConnectionOnCancel);
  }

  /**
   * Runs {@code task}, {@code which} (such as {@code "the headers timeout"}) for {@code attempt} of
   * the call {@code what}, after {@code delayNanos}; false if the scheduler is closed.
   */
  boolean schedule(Runnable task, long delayNanos, String what, Attempt<?> attempt, String which) {
    try {
      scheduler.schedule(task, delayNanos);
      return true;
    } catch (RejectedExecutionException closed) {
      // Closing: the caller decides what the attempt does without it.
      LOG.debug(
          "{}: {} not scheduled for {}, the client is closing: {}",
          what,
          which,
          attempt,
          closed.toString());
      return false;
    }
  }
}
