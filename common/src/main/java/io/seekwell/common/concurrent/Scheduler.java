package io.seekwell.common.concurrent;

import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs short tasks after a delay: backoff waits, hedge deadlines, stall checks. Tasks must not
 * block. Implementations are thread-safe; tests use one driven by their own {@link Ticker}.
 */
public interface Scheduler extends AutoCloseable {

  /**
   * Runs {@code task} once, {@code delayNanos} from now.
   *
   * @return a handle to cancel it
   * @throws RejectedExecutionException once the scheduler is closed
   */
  Future<?> schedule(Runnable task, long delayNanos);

  /** Stops running tasks; tasks not yet run are dropped. */
  @Override
  void close();

  /**
   * A scheduler with one daemon thread named {@code name}, which ends when idle for a few seconds
   * and starts again when a task is scheduled.
   */
  static Scheduler daemon(String name) {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(1, DaemonPools.threadFactory(name));
    executor.setKeepAliveTime(5, TimeUnit.SECONDS);
    executor.allowCoreThreadTimeOut(true);
    executor.setRemoveOnCancelPolicy(true);
    return new Scheduler() {
      @Override
      public Future<?> schedule(Runnable task, long delayNanos) {
        return executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
      }

      @Override
      public void close() {
        DaemonPools.shutdown(executor);
      }
    };
  }
}
