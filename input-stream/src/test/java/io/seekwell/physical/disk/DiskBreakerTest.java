package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.ManualClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The pause of a disk tier after a disk error, on a clock that moves only when the test says. */
class DiskBreakerTest {

  private static final Duration PAUSE = Duration.ofMinutes(1);
  private static final Path DIRECTORY = Path.of("cache");

  private final ManualClock clock = new ManualClock();
  private final Metrics metrics = new Metrics();

  private static IOException diskError() {
    return new IOException("the disk is gone");
  }

  @Test
  void aTripPausesTheTierForAMinuteFromItsOwnTime() {
    DiskBreaker breaker = new DiskBreaker(DIRECTORY, clock::nanos);
    assertFalse(breaker.isPaused(), "a new tier is not paused");

    breaker.trip("reading", diskError(), metrics);
    assertEquals(1, metrics.get(Metric.DISK_ERRORS));
    assertTrue(breaker.isPaused());
    clock.advance(PAUSE.minusNanos(1));
    assertTrue(breaker.isPaused(), "a nanosecond before the minute ends");
    clock.advance(Duration.ofNanos(1));
    assertFalse(breaker.isPaused(), "once the minute is over");

    clock.advance(Duration.ofSeconds(5));
    breaker.trip("writing", diskError(), metrics);
    clock.advance(PAUSE.minusNanos(1));
    assertTrue(breaker.isPaused(), "a second error pauses a minute from its own time");
    assertEquals(2, metrics.get(Metric.DISK_ERRORS));
  }

  /**
   * A check that read the clock once the last pause was over, and is held there while another
   * thread trips the breaker, must not end the new pause when it goes on.
   */
  @Test
  void aCheckThatFoundThePauseOverDoesNotEndAPauseBegunMeanwhile() throws Exception {
    Thread test = Thread.currentThread();
    CountDownLatch clockRead = new CountDownLatch(1);
    CountDownLatch goOn = new CountDownLatch(1);
    LongSupplier heldClock =
        () -> {
          long now = clock.nanos();
          if (Thread.currentThread() != test) { // the checking thread
            clockRead.countDown();
            try {
              goOn.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException(e);
            }
          }
          return now;
        };
    DiskBreaker breaker = new DiskBreaker(DIRECTORY, heldClock);
    breaker.trip("reading", diskError(), metrics);
    clock.advance(PAUSE); // the first pause is over, and no thread has looked since

    CompletableFuture<Boolean> check = new CompletableFuture<>();
    Thread checker = new Thread(() -> check.complete(breaker.isPaused()), "checker");
    checker.start();
    assertTrue(clockRead.await(1, TimeUnit.MINUTES), "the check read the clock");
    breaker.trip("writing", diskError(), metrics);
    goOn.countDown();
    check.get(1, TimeUnit.MINUTES);
    checker.join();

    assertTrue(breaker.isPaused(), "the second pause goes on after the check");
    clock.advance(PAUSE.minusNanos(1));
    assertTrue(breaker.isPaused(), "for the whole minute");
    clock.advance(Duration.ofNanos(1));
    assertFalse(breaker.isPaused());
  }
}
