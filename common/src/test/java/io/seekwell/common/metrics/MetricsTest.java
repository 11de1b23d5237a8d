package io.seekwell.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MetricsTest {

  @Test
  void aSetAddsWhatItCountsToItsParentToo() {
    Metrics total = new Metrics();
    Metrics one = new Metrics(total);
    Metrics two = new Metrics(total);
    one.increment(Metric.GET_REQUESTS);
    two.add(Metric.GET_REQUESTS, 2);
    two.add(Metric.BYTES_RECEIVED, 5);
    assertEquals(1, one.get(Metric.GET_REQUESTS));
    assertEquals(2, two.get(Metric.GET_REQUESTS));
    assertEquals(3, total.get(Metric.GET_REQUESTS));
    assertEquals(5, total.get(Metric.BYTES_RECEIVED));
  }

  @Test
  void countsFromManyThreads() throws Exception {
    Metrics metrics = new Metrics();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        tasks.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 10_000; i++) {
                    metrics.increment(Metric.GET_REQUESTS);
                    metrics.add(Metric.BYTES_RECEIVED, 3);
                  }
                }));
      }
      for (Future<?> task : tasks) {
        task.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    MetricsSnapshot snapshot = metrics.snapshot();
    assertEquals(80_000, snapshot.get(Metric.GET_REQUESTS));
    assertEquals(240_000, snapshot.get(Metric.BYTES_RECEIVED));
    assertEquals(0, snapshot.get(Metric.RETRIES));
  }

  @Test
  void snapshotIsImmutableAndDoesNotMove() {
    Metrics metrics = new Metrics();
    metrics.increment(Metric.HEAD_REQUESTS);
    MetricsSnapshot before = metrics.snapshot();
    metrics.add(Metric.HEAD_REQUESTS, 4);
    MetricsSnapshot after = metrics.snapshot();
    assertEquals(1, before.get(Metric.HEAD_REQUESTS));
    assertEquals(5, after.get(Metric.HEAD_REQUESTS));
    assertEquals(4, after.minus(before).get(Metric.HEAD_REQUESTS));
    assertThrows(UnsupportedOperationException.class, () -> before.asMap().put(Metric.RETRIES, 1L));
  }

  @Test
  void snapshotsAddUpFromZero() {
    Metrics one = new Metrics();
    one.add(Metric.GET_REQUESTS, 3);
    one.increment(Metric.HEDGED_GETS);
    Metrics other = new Metrics();
    other.add(Metric.GET_REQUESTS, 4);
    MetricsSnapshot sum = MetricsSnapshot.zero().plus(one.snapshot()).plus(other.snapshot());
    assertEquals(7, sum.get(Metric.GET_REQUESTS));
    assertEquals(1, sum.get(Metric.HEDGED_GETS));
    assertEquals(0, MetricsSnapshot.zero().get(Metric.BODIES_RESUMED));
    assertEquals(4, sum.minus(one.snapshot()).get(Metric.GET_REQUESTS));
  }
}
