package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits on conditions that nothing signals, with a deadline, without sleeping. */
public final class Conditions {

  private Conditions() {}

  /**
   * Returns once {@code condition} holds; fails naming {@code what} if it does not within {@code
   * deadline}. The waiting thread yields between checks, so that the threads it waits for run.
   */
  public static void await(BooleanSupplier condition, Duration deadline, String what) {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() - end < 0, "within " + deadline + ": " + what);
      Thread.yield();
    }
  }
}
