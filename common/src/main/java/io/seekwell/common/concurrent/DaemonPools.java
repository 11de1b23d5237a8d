package io.seekwell.common.concurrent;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread pools of named daemon threads, as every Seekwell component that owns threads uses them:
 * they never keep a JVM alive, and their names tell which component started them.
 */
public final class DaemonPools {

  private static final long SHUTDOWN_WAIT_SECONDS = 10;

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

  /** Interrupts the pool's threads and waits up to 10 seconds for them to end. */
  public static void shutdown(ExecutorService pool) {
    pool.shutdownNow();
    try {
      pool.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
