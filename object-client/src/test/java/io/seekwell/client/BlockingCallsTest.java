package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BlockingCallsTest {

  @Test
  void anErrorThrownByACallGoesToItsCallerNotToTheThreadsUncaughtHandler() throws Exception {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
    try (BlockingCalls calls = new BlockingCalls("blocking-calls-test-", 1)) {
      CompletableFuture<String> failed =
          calls.run(
              () -> {
                throw new NoSuchMethodError("DigestAlgorithm.getDigest()");
              },
              value -> {});
      ExecutionException error =
          assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
      assertInstanceOf(NoSuchMethodError.class, error.getCause());
      assertEquals("next", calls.run(() -> "next", value -> {}).get(10, TimeUnit.SECONDS));
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
    assertEquals(List.of(), uncaught);
  }

  @Test
  void aCallStillQueuedWhenTheClientClosesFailsAtOnce() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<String> queued;
    try (BlockingCalls calls = new BlockingCalls("blocking-calls-close-test-", 1)) {
      calls.run(
          () -> {
            running.countDown();
            awaitQuietly(release);
            return "first";
          },
          value -> {});
      assertTrue(running.await(10, TimeUnit.SECONDS));
      queued = calls.run(() -> "never", value -> {});
    } finally {
      release.countDown();
    }
    ExecutionException error =
        assertThrows(ExecutionException.class, () -> queued.get(10, TimeUnit.SECONDS));
    assertEquals("The object client is closed", error.getCause().getMessage());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
