package io.seekwell.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/**
 * Waits for the machine to go quiet between measured iterations: a stream that aborts a GET can
 * leave the proxy and the server moving the rest of the object for seconds, which would otherwise
 * slow down whichever path runs next.
 */
public final class Quiet {

  /** System CPU load below which the machine counts as quiet. */
  private static final double IDLE_LOAD = 0.15;

  private static final long SAMPLE_MILLIS = 250;
  private static final int QUIET_SAMPLES = 4;
  private static final long MAX_WAIT_MILLIS = 60_000;

  private Quiet() {}

  /**
   * Returns once the system CPU load stayed below 15% for a second, or after a minute.
   *
   * @return the milliseconds waited
   */
  public static long await() throws InterruptedException {
    OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    long start = System.nanoTime();
    int quietSamples = 0;
    while (quietSamples < QUIET_SAMPLES && elapsedMillis(start) < MAX_WAIT_MILLIS) {
      Thread.sleep(SAMPLE_MILLIS);
      double load = os.getCpuLoad();
      quietSamples = load >= 0 && load < IDLE_LOAD ? quietSamples + 1 : 0;
    }
    return elapsedMillis(start);
  }

  private static long elapsedMillis(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }
}
