package io.seekwell.bench.faults;

import io.seekwell.testing.FaultProxy;

/**
 * Ends what an abandoned iteration left behind before the next one starts: an iteration still
 * running at the deadline is only interrupted, and a peer's threads may go on reading through the
 * fault proxy (its retries, its prefetches), slowing down whichever path runs next and drawing its
 * faults. The proxy's connections are dropped until none is opened for a second, or for ten after
 * an abandoned iteration (longer than the retry back-offs seen here, though a client may wait
 * longer), so that the leftovers' requests fail and their retries run out; what still connects
 * after a minute is reported with the iteration that began then. Not thread-safe: the benchmark's
 * main thread uses it.
 */
final class LeftoverConnections {

  /** How the wait sleeps between looks at the proxy; tests give one that does not sleep. */
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  static final long LOOK_EVERY_MILLIS = 250;

  /** Looks in a row with no connection opened that count as quiet: a second. */
  static final int QUIET_LOOKS = 4;

  /** Looks in a row with no connection opened that count as quiet after an abandoned iteration. */
  static final int QUIET_LOOKS_AFTER_ABANDONED = 40;

  /** Looks before giving up: a minute. */
  static final int MAX_LOOKS = 240;

  private final FaultProxy proxy;
  private final Sleeper sleeper;

  LeftoverConnections(FaultProxy proxy, Sleeper sleeper) {
    this.proxy = proxy;
    this.sleeper = sleeper;
  }

  /**
   * Drops the proxy's connections until none is opened for {@link #QUIET_LOOKS} looks in a row
   * ({@link #QUIET_LOOKS_AFTER_ABANDONED} if {@code afterAbandoned}), or for at most {@link
   * #MAX_LOOKS} looks.
   *
   * @return whether the proxy went quiet; false if connections still came after a minute
   */
  boolean end(boolean afterAbandoned) throws InterruptedException {
    int quietEnough = afterAbandoned ? QUIET_LOOKS_AFTER_ABANDONED : QUIET_LOOKS;
    int quietLooks = 0;
    int opened = proxy.connections();
    for (int look = 0; look < MAX_LOOKS; look++) {
      proxy.dropConnections();
      sleeper.sleep(LOOK_EVERY_MILLIS);
      int nowOpened = proxy.connections();
      quietLooks = nowOpened == opened && proxy.openConnections() == 0 ? quietLooks + 1 : 0;
      opened = nowOpened;
      if (quietLooks == quietEnough) {
        return true;
      }
    }
    return false;
  }
}
