package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link Attempt} alone, on a clock the test moves: whether the client below may send it, and what
 * a cancel does to its request.
 */
class AttemptTest {

  private final ManualClock clock = new ManualClock();
  private final AtomicInteger told = new AtomicInteger();

  private Attempt<String> attempt(boolean freesConnectionOnCancel) {
    return new Attempt<>(
        Attempt.Kind.HEDGE,
        2,
        " as a hedge",
        1_000,
        Long.MAX_VALUE,
        freesConnectionOnCancel,
        clock,
        sent -> told.incrementAndGet());
  }

  @Test
  void anAttemptCancelledBeforeItsRequestIsKnownIsNotSent() {
    // A hedge cancelled when another attempt answered, while it was being requested.
    Attempt<String> hedge = attempt(false);
    hedge.cancel();
    assertFalse(hedge.sent(), "the client below must not send it");
    assertFalse(hedge.isSent());
    assertEquals(0, told.get(), "no timeout or hedge deadline planned for it");

    CompletableFuture<String> request = new CompletableFuture<>();
    hedge.requested(request);
    assertTrue(request.isCancelled(), "its wait is given up even for a blocking client");
  }

  @Test
  void aSecondSendChangesNothing() {
    Attempt<String> attempt = attempt(true);
    assertTrue(attempt.sent());
    long sentAt = attempt.sentNanos();
    clock.advance(Duration.ofMillis(5));
    assertTrue(attempt.sent());
    assertEquals(sentAt, attempt.sentNanos(), "its timeouts still count from the first");
    assertEquals(1, told.get(), "its timers are planned once");
  }

  @Test
  void aSentRequestOfABlockingClientIsLeftToEndByItself() {
    Attempt<String> attempt = attempt(false);
    CompletableFuture<String> request = new CompletableFuture<>();
    attempt.requested(request);
    assertTrue(attempt.sent());
    attempt.cancel();
    assertFalse(request.isCancelled());
    assertFalse(attempt.sent(), "asked again once cancelled: not to be sent");
  }
}
