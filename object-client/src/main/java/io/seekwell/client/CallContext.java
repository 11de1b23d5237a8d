package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;

/**
 * What the calls of one layer's {@link RetryingCalls} and {@link HedgingObjectClient} share: their
 * settings, time, timer, response-time statistics, hedge budget and counters. Immutable; each part
 * is thread-safe on its own.
 */
record CallContext(
    ObjectClientConfiguration configuration,
    RetryPolicy policy,
    Scheduler scheduler,
    Ticker ticker,
    ResponseTimes times,
    HedgeBudget budget,
    RequestCounter counter) {

  /**
   * The context of a client whose calls follow {@code policy} (and its configuration) and {@code
   * times}, with a new hedge budget, counting in {@code metrics}.
   */
  static CallContext of(
      RetryPolicy policy,
      Scheduler scheduler,
      Ticker ticker,
      ResponseTimes times,
      Metrics metrics) {
    ObjectClientConfiguration configuration = policy.configuration();
    return new CallContext(
        configuration,
        policy,
        scheduler,
        ticker,
        times,
        new HedgeBudget(configuration.hedgeBudget()),
        new RequestCounter(metrics));
  }

  /**
   * Runs {@code task}, {@code which} (such as {@code "the headers timeout"}) for {@code attempt} of
   * the call {@code what}, after {@code delayNanos}; false if the scheduler is closed.
   */
  boolean schedule(Runnable task, long delayNanos, String what, Attempt<?> attempt, String which) {
    return Timers.schedule(scheduler, task, delayNanos, what, attempt, which);
  }
}
