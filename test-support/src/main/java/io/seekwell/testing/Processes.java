package io.seekwell.testing;

import java.util.concurrent.TimeUnit;

/** Stopping the server processes that tests and benchmarks start. */
public final class Processes {

  private static final long GRACE_SECONDS = 10;

  private Processes() {}

  /**
   * Asks {@code process} to stop and waits up to 10 seconds, then kills it and waits up to 10 more.
   * If the caller is interrupted, the process is killed and the interrupt flag kept.
   */
  public static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
