package io.seekwell.common.concurrent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread pools of named daemon threads, as every Seekwell component that owns threads uses them:
 * they never keep a JVM alive, and their names tell which component started them.
 */
public final class DaemonPools {

  private static final long SHUTDOWN_WAIT_SECONDS = 10;
  private static final Logger LOG = LoggerFactory.getLogger(DaemonPools.class);

  private DaemonPools() {}

  /** Makes daemon threads named {@code prefix1}, {@code prefix2}, and so on. */
  public static ThreadFactory threadFactory(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /**
   * A pool of at most {@code threads} threads, which end after 30 seconds idle. A task goes to an
   * idle thread if there is one; a thread is started only when none is idle, and tasks beyond
   * {@code threads} at once wait in an unbounded queue. Tasks submitted after shutdown are
   * rejected.
   */
  public static ThreadPoolExecutor bounded(String prefix, int threads) {
    IdleFirstQueue queue = new IdleFirstQueue();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(0, threads, 30, TimeUnit.SECONDS, queue, threadFactory(prefix));
    queue.serve(pool);
    pool.setRejectedExecutionHandler(queue.queueUnlessShutDown());
    return pool;
  }

  /**
   * A task that is told when its pool shuts down before running it, so that whoever waits for its
   * result fails at once instead of at its deadline.
   */
  public interface Abandonable extends Runnable {
    /** Runs instead of {@link #run()} on the thread that shuts the pool down; must not block. */
    void abandon();
  }

  /**
   * Stops the pool without waiting: interrupts its threads and abandons the tasks still queued (an
   * {@link Abandonable} is told, a {@link Future} is cancelled, any other task is dropped). The
   * tasks of {@code CompletableFuture}'s async methods are cancelled without completing the futures
   * they would have completed: a caller that waits for one must bound its wait.
   */
  public static void stop(ExecutorService pool) {
    for (Runnable task : pool.shutdownNow()) {
      try {
        if (task instanceof Abandonable abandonable) {
          abandonable.abandon();
        } else if (task instanceof Future<?> future) {
          future.cancel(false);
        }
      } catch (RuntimeException e) {
        // One task's failure to be told does not keep the others waiting.
        LOG.warn("A task abandoned at shutdown failed: {}", e.toString(), e);
      }
    }
  }

  /** {@link #stop}s the pool, then waits up to 10 seconds for its threads to end. */
  public static void shutdown(ExecutorService pool) {
    stop(pool);
    try {
      pool.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
