package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
}
