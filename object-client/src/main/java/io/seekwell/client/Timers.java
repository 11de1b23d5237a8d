package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Plans the resilience layer's timeouts and deadlines on its scheduler. Stateless. */
final class Timers {

  private static final Logger LOG = LoggerFactory.getLogger(Timers.class);

  private Timers() {}

  /**
   * Runs {@code task}, {@code which} (such as {@code "the headers timeout"}) for {@code attempt} of
   * the call {@code what}, on {@code scheduler} after {@code delayNanos}; false, and logged at
   * DEBUG, if the scheduler is closed.
   */
  static boolean schedule(
      Scheduler scheduler,
      Runnable task,
      long delayNanos,
      String what,
      Object attempt,
      String which) {
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
