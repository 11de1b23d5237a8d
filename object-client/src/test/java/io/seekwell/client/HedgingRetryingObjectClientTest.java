package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HedgingRetryingObjectClient} alone, without the resuming of bodies: a scripted store on a
 * clock the test moves.
 */
class HedgingRetryingObjectClientTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");
  private static final byte[] CONTENT = TestData.randomBytes(22, 50_000);
  private static final GetRequest ALL = GetRequest.of(OBJECT, ByteRange.of(0, CONTENT.length - 1));
  private static final ObjectClientConfiguration CONFIG =
      ObjectClientConfiguration.builder()
          .baseDelay(Duration.ofMillis(1))
          .maxDelay(Duration.ofMillis(2))
          .firstByteTimeout(Duration.ofSeconds(5))
          .retryDeadline(Duration.ofSeconds(60))
          .build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  private final ManualClock clock = new ManualClock();
  private final HedgingRetryingObjectClient client =
      new HedgingRetryingObjectClient(
          faults,
          CallContext.of(
              new RetryPolicy(CONFIG), clock, clock, new ResponseTimes(CONFIG), metrics, true));

  {
    store.put(OBJECT, CONTENT);
  }

  @AfterEach
  void close() {
    client.close();
    clock.close();
  }

  private static byte[] readAll(CompletableFuture<ObjectContent> response) throws Exception {
    try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
      return content.stream().readAllBytes();
    }
  }

  @Test
  void aGetWithoutHeadersIsHedgedAtTheDeadlineAndTheLogSaysSo() throws Exception {
    faults.thenHang();
    try (CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(ALL);
      clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));
      assertArrayEquals(CONTENT, readAll(response));

      assertEquals(1, metrics.get(Metric.HEDGED_GETS));
      assertEquals(1, metrics.get(Metric.HEDGES_WON));
      assertEquals(
          "GET "
              + ALL.describe()
              + ": attempt 2 (HEDGE) sent as a hedge after 250 ms without headers",
          logs.line("(HEDGE) sent"));
      String won = logs.line("the hedge won");
      assertTrue(won.startsWith("GET " + ALL.describe() + ": attempt 2 (HEDGE) answered"), won);
      assertTrue(won.endsWith("1 attempt and 1 hedge"), won);
    }
  }

  @Test
  void aThrottledGetIsRetriedAfterABackoffAndCutsItsBucketsLimit() throws Exception {
    faults.thenFail(
        new ObjectStoreException(
            "GET s3://bucket/key: slow down", 503, "SlowDown", "r", true, null));
    try (CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(ALL);
      assertFalse(response.isDone(), "the retry waits for its backoff");
      clock.advance(Duration.ofMillis(RetryPolicy.THROTTLED_BASE_FACTOR));
      assertArrayEquals(CONTENT, readAll(response));

      assertEquals(1, metrics.get(Metric.RETRIES));
      assertEquals(1, metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));
      assertTrue(
          logs.line("retried in")
              .startsWith("GET " + ALL.describe() + ": attempt 1 (TRY) failed (THROTTLED)"),
          () -> logs.debugLines().toString());
      assertTrue(
          logs.line("concurrency limit").contains("limit of bucket bucket cut to 1"),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void aBodyCutPartWayIsNotResumedHere() throws Exception {
    faults.thenCutBodyAfter(1_000);
    try (ObjectContent content = client.getObject(ALL).get(10, TimeUnit.SECONDS)) {
      assertThrows(IOException.class, () -> content.stream().readAllBytes());
    }
    assertEquals(1, faults.sentGets().size());
    assertEquals(0, metrics.get(Metric.RETRIES));
  }
}
