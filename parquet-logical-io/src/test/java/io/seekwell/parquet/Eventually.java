package io.seekwell.parquet;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another thread (a plug-in's parser) makes true, up to a deadline: a
 * checker thread tests it every millisecond and the waiting thread blocks until it holds.
 */
final class Eventually {

  private static final long DEADLINE_SECONDS = 10;

  private Eventually() {}

  /** Returns once {@code condition} holds; fails the test if it does not within 10 s. */
  static void holds(String what, BooleanSupplier condition) throws Exception {
    ScheduledExecutorService checker = Executors.newSingleThreadScheduledExecutor();
    CompletableFuture<Void> held = new CompletableFuture<>();
    try {
      checker.scheduleWithFixedDelay(
          () -> {
            if (condition.getAsBoolean()) {
              held.complete(null);
            }
          },
          0,
          1,
          TimeUnit.MILLISECONDS);
      held.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("not within " + DEADLINE_SECONDS + " s: " + what, e);
    } finally {
      checker.shutdownNow();
    }
  }
}
