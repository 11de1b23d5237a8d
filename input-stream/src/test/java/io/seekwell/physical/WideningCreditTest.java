package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WideningCreditTest {

  private static final int THREADS = 8;

  @Test
  void missesDecidedAtOnceNeverWidenTwiceOnOneCredit() throws Exception {
    Metrics metrics = new Metrics();
    WideningCredit credit = new WideningCredit(metrics);
    int misses = 4 * WideningCredit.PAYOFF + 3 * WideningCredit.PROBE_EVERY;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<Map<WideningCredit.Decision, Integer>>> threads = new ArrayList<>();
    try {
      for (int t = 0; t < THREADS; t++) {
        threads.add(
            pool.submit(
                () -> {
                  Map<WideningCredit.Decision, Integer> decided =
                      new EnumMap<>(WideningCredit.Decision.class);
                  start.await();
                  for (int i = 0; i < misses / THREADS; i++) {
                    decided.merge(credit.decide(), 1, Integer::sum);
                  }
                  return decided;
                }));
      }
      start.countDown();
      Map<WideningCredit.Decision, Integer> decided = new EnumMap<>(WideningCredit.Decision.class);
      for (Future<Map<WideningCredit.Decision, Integer>> thread : threads) {
        thread.get(1, TimeUnit.MINUTES).forEach((d, n) -> decided.merge(d, n, Integer::sum));
      }

      // The starting credit pays for PAYOFF widenings, whichever threads take them; of the misses
      // after it, every PROBE_EVERYth is a probe and the others are held back and counted.
      int afterCredit = misses - WideningCredit.PAYOFF;
      int probes = afterCredit / WideningCredit.PROBE_EVERY;
      assertEquals(
          Map.of(
              WideningCredit.Decision.WIDEN,
              WideningCredit.PAYOFF,
              WideningCredit.Decision.PROBE,
              probes,
              WideningCredit.Decision.HOLD_BACK,
              afterCredit - probes),
          decided);
      assertEquals(afterCredit - probes, metrics.get(Metric.MISS_WIDENINGS_HELD_BACK));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aReadWideningEarnsThePayoffUpToTheCap() {
    Metrics metrics = new Metrics();
    WideningCredit credit = new WideningCredit(metrics);
    for (int i = 0; i < WideningCredit.CAP; i++) {
      credit.earn();
    }
    int widened = 0;
    while (credit.decide() == WideningCredit.Decision.WIDEN) {
      widened++;
    }
    assertEquals(WideningCredit.CAP, widened);
    assertEquals(WideningCredit.CAP, metrics.get(Metric.MISS_WIDENINGS_READ));
  }
}
