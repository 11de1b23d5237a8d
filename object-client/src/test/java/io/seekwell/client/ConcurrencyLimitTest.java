package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ConcurrencyLimit.Outcome;
import io.seekwell.client.ConcurrencyLimit.Permit;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConcurrencyLimitTest {

  private final ManualClock clock = new ManualClock();
  private final Metrics metrics = new Metrics();

  private ConcurrencyLimit limit(int most) {
    return new ConcurrencyLimit("bucket", most, clock, metrics);
  }

  private static Permit granted(CompletableFuture<Permit> wait) {
    assertTrue(wait.isDone(), "granted");
    return wait.join();
  }

  private static List<Permit> take(ConcurrencyLimit limit, int count) {
    List<Permit> permits = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      permits.add(granted(limit.acquire(false)));
    }
    return permits;
  }

  @Test
  void startsAtTheMostAndQueuesPastIt() {
    ConcurrencyLimit limit = limit(4);
    List<Permit> permits = take(limit, 4);
    CompletableFuture<Permit> fifth = limit.acquire(false);
    assertFalse(fifth.isDone());
    assertEquals(1, limit.waiting());
    assertEquals(1, metrics.get(Metric.REQUESTS_QUEUED));

    clock.advance(Duration.ofMillis(7));
    permits.get(0).release(Outcome.OTHER);
    granted(fifth);
    assertEquals(4, limit.inFlight());
    assertEquals(0, limit.waiting());
    assertEquals(Duration.ofMillis(7).toNanos(), metrics.get(Metric.QUEUED_NANOS));
  }

  @Test
  void demandWaitersGoBeforePrefetchWaitersWhateverTheOrder() {
    ConcurrencyLimit limit = limit(1);
    Permit only = granted(limit.acquire(false));
    CompletableFuture<Permit> prefetchFirst = limit.acquire(true);
    CompletableFuture<Permit> prefetchSecond = limit.acquire(true);
    CompletableFuture<Permit> demand = limit.acquire(false);

    only.release(Outcome.OTHER);
    assertTrue(demand.isDone());
    assertFalse(prefetchFirst.isDone());
    granted(demand).release(Outcome.OTHER);
    assertTrue(prefetchFirst.isDone());
    assertFalse(prefetchSecond.isDone());
    granted(prefetchFirst).release(Outcome.OTHER);
    granted(prefetchSecond).release(Outcome.OTHER);
    assertEquals(0, limit.inFlight());
  }

  @Test
  void throttlingCutsToAShareOfWhatWasInFlightOncePerBurst() {
    ConcurrencyLimit limit = limit(1024);
    List<Permit> permits = take(limit, 40);
    clock.advance(Duration.ofMillis(1));

    permits.get(0).release(Outcome.THROTTLED);
    assertEquals((int) (40 * ConcurrencyLimit.CUT), limit.limit());
    // The others were sent before the cut: their throttled answers belong to the same burst.
    for (Permit permit : permits.subList(1, 20)) {
      permit.release(Outcome.THROTTLED);
    }
    assertEquals(30, limit.limit());
    assertEquals(1, metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));

    // A request sent after the cut and throttled too cuts again.
    clock.advance(Duration.ofMillis(1));
    Permit later = granted(limit.acquire(false));
    clock.advance(Duration.ofMillis(1));
    later.release(Outcome.THROTTLED);
    assertEquals((int) (21 * ConcurrencyLimit.CUT), limit.limit());
    assertEquals(2, metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));
  }

  @Test
  void neverCutsBelowOne() {
    ConcurrencyLimit limit = limit(8);
    for (int i = 0; i < 20; i++) {
      clock.advance(Duration.ofMillis(1));
      Permit permit = granted(limit.acquire(false));
      clock.advance(Duration.ofMillis(1));
      permit.release(Outcome.THROTTLED);
    }
    assertEquals(1, limit.limit());
    granted(limit.acquire(false));
  }

  @Test
  void successesWhileTheLimitIsUsedGrowItByAboutOnePerLimitOfThem() {
    ConcurrencyLimit limit = limit(64);
    List<Permit> permits = take(limit, 16);
    clock.advance(Duration.ofMillis(1));
    permits.remove(0).release(Outcome.THROTTLED);
    assertEquals(12, limit.limit());
    for (Permit permit : permits) {
      permit.release(Outcome.OTHER);
    }

    // Keep the limit full: each success is replaced by a new request.
    List<Permit> full = take(limit, 12);
    for (int i = 0; i < 12 * 3; i++) {
      full.remove(0).release(Outcome.SUCCESS);
      full.add(granted(limit.acquire(false)));
    }
    int raised = limit.limit();
    assertTrue(raised >= 14 && raised <= 15, "about 3 higher after 3 limits' worth: " + raised);
  }

  @Test
  void anIdleLimitDoesNotGrow() {
    ConcurrencyLimit limit = limit(64);
    List<Permit> permits = take(limit, 16);
    clock.advance(Duration.ofMillis(1));
    permits.remove(0).release(Outcome.THROTTLED);
    permits.forEach(permit -> permit.release(Outcome.OTHER));
    for (int i = 0; i < 1000; i++) {
      granted(limit.acquire(false)).release(Outcome.SUCCESS); // one at a time: 1 < 12 / 2
    }
    assertEquals(12, limit.limit());
  }

  @Test
  void growsBackNoHigherThanTheMost() {
    ConcurrencyLimit limit = limit(4);
    List<Permit> permits = take(limit, 4);
    clock.advance(Duration.ofMillis(1));
    permits.remove(0).release(Outcome.THROTTLED);
    assertEquals(3, limit.limit());
    for (int i = 0; i < 100; i++) {
      permits.remove(0).release(Outcome.SUCCESS);
      permits.add(granted(limit.acquire(false)));
    }
    assertEquals(4, limit.limit());
    permits.add(granted(limit.acquire(false)));
    assertFalse(limit.acquire(false).isDone(), "four in flight");
  }

  @Test
  void aWaiterThatGivesUpLeavesTheQueueAndItsPlaceGoesToTheNext() {
    ConcurrencyLimit limit = limit(1);
    Permit only = granted(limit.acquire(false));
    CompletableFuture<Permit> givesUp = limit.acquire(false);
    CompletableFuture<Permit> next = limit.acquire(false);
    givesUp.completeExceptionally(new IllegalStateException("deadline"));
    assertEquals(1, limit.waiting());
    only.release(Outcome.OTHER);
    granted(next);
    assertEquals(1, limit.inFlight());
  }

  @Test
  void aPermitGivenBackTwiceCountsOnce() {
    ConcurrencyLimit limit = limit(2);
    Permit permit = granted(limit.acquire(false));
    permit.release(Outcome.OTHER);
    permit.release(Outcome.OTHER);
    assertEquals(0, limit.inFlight());
    take(limit, 2);
    assertFalse(limit.acquire(false).isDone());
  }

  @Test
  void aGrantedWaiterCanTakeAndGiveBackWithinItsGrantWithoutLosingAnyone() {
    ConcurrencyLimit limit = limit(1);
    Permit only = granted(limit.acquire(false));
    List<CompletableFuture<Permit>> waits = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      CompletableFuture<Permit> wait = limit.acquire(i % 2 == 0);
      // What a failed send does: the permit is given back inside the grant.
      wait.thenAccept(permit -> permit.release(Outcome.OTHER));
      waits.add(wait);
    }
    only.release(Outcome.OTHER);
    assertTrue(waits.stream().allMatch(CompletableFuture::isDone));
    assertEquals(0, limit.inFlight());
    assertEquals(0, limit.waiting());
  }

  @Test
  void underContentionNoMoreThanTheLimitIsEverInFlightAndEveryWaiterIsServed() throws Exception {
    ConcurrencyLimit limit = new ConcurrencyLimit("bucket", 5, System::nanoTime, metrics);
    AtomicInteger holding = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    int threads = 8;
    int each = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < each; i++) {
                    Permit permit =
                        limit
                            .acquire(ThreadLocalRandom.current().nextBoolean())
                            .get(10, TimeUnit.SECONDS);
                    most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                    holding.decrementAndGet();
                    permit.release(Outcome.SUCCESS);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertTrue(most.get() <= 5, "at most the limit held at once: " + most.get());
    assertEquals(0, limit.inFlight());
    assertEquals(0, limit.waiting());
  }
}
