package io.seekwell.bench.soak;

import io.seekwell.bench.store.ToxiproxyServer;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The soak's pauses between tasks: to restart the latency proxy once it holds too much, and to
 * sample the process idle. A pause begins once the tasks under way have ended and holds new ones
 * back until it is over; the factories' own background GETs may still be cut by a proxy restart,
 * and are retried.
 *
 * <p><b>Design notes.</b> Each worker's task holds the read lock of a fair read-write lock ({@link
 * #beginTask}, {@link #endTask}); a pause takes its write lock, and, the lock being fair, a waiting
 * pause holds back new tasks. Only the thread that runs the soak pauses, so the restart count needs
 * no lock of its own.
 */
final class Pauses {

  /**
   * How long the workers may take to finish the tasks under way: once the soak ends, and when a
   * pause holds them between tasks.
   */
  static final long END_MINUTES = 5;

  /**
   * The latency proxy's resident set above which it is restarted between two samples: it keeps the
   * rest of every response a reader abandoned (a stall cut, a hedge's loser, a closed stream) and
   * never gives it back, gigabytes within minutes, until the machine swaps and the store stops
   * answering.
   */
  private static final long PROXY_RESIDENT_LIMIT = 2L << 30;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock(true);
  private final Optional<ToxiproxyServer> latencyProxy;
  private long proxyRestarts;

  /** Pauses of a soak whose store is behind {@code latencyProxy}, if it has one. */
  Pauses(Optional<ToxiproxyServer> latencyProxy) {
    this.latencyProxy = latencyProxy;
  }

  /** Something done between tasks, while the workers wait. */
  interface BetweenTasks {
    void run() throws IOException, InterruptedException;
  }

  /** A task begins: no pause begins until it ends. */
  void beginTask() {
    lock.readLock().lock();
  }

  /** The task begun by this thread has ended. */
  void endTask() {
    lock.readLock().unlock();
  }

  /**
   * Runs {@code action} once the tasks under way have ended, holding new ones back.
   *
   * @return false, with nothing run, if they did not end within {@link #END_MINUTES}
   */
  boolean between(BetweenTasks action) throws IOException, InterruptedException {
    if (!lock.writeLock().tryLock(END_MINUTES, TimeUnit.MINUTES)) {
      return false;
    }
    try {
      action.run();
      return true;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Whether the latency proxy holds more than {@link #PROXY_RESIDENT_LIMIT} or has ended. */
  boolean proxyNeedsRestart() throws IOException, InterruptedException {
    return latencyProxy.isPresent()
        && (!latencyProxy.get().alive()
            || latencyProxy.get().residentBytes() > PROXY_RESIDENT_LIMIT);
  }

  /**
   * Restarts the latency proxy if it {@linkplain #proxyNeedsRestart needs it}; call it {@link
   * #between} tasks. The clients' pooled connections to it break; their next requests retry on new
   * ones.
   */
  void restartBloatedProxy() throws IOException, InterruptedException {
    if (!proxyNeedsRestart()) {
      return;
    }
    long resident = latencyProxy.get().residentBytes();
    boolean alive = latencyProxy.get().alive();
    latencyProxy.get().restart();
    proxyRestarts++;
    System.out.printf(
        Locale.ROOT,
        "... the latency proxy %s: restarted between tasks%n",
        alive
            ? String.format(Locale.ROOT, "held %.0f MB of abandoned responses", resident / 1e6)
            : "had ended");
  }

  /** How many times the latency proxy was restarted. */
  long proxyRestarts() {
    return proxyRestarts;
  }
}
