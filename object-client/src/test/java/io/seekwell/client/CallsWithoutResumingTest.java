package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The layer without the resuming of bodies ({@link RetryingCalls} over {@link HedgingObjectClient}
 * over {@link LimitingObjectClient}): a scripted store on a clock the test moves.
 */
class CallsWithoutResumingTest {

  private static final ObjectClientConfiguration CONFIG =
      ScriptedFaultsObjectClient.fastRetries().build();

  private final ScriptedStore store = new ScriptedStore(22, 50_000);
  private final CallContext context =
      CallContext.of(
          new RetryPolicy(CONFIG),
          store.clock,
          store.clock,
          new ResponseTimes(CONFIG),
          store.metrics);
  private final RetryingCalls client =
      new RetryingCalls(
          new HedgingObjectClient(
              new LimitingObjectClient(
                  store.faults, CONFIG, store.clock, store.clock, store.metrics),
              context),
          context);

  @AfterEach
  void close() {
    client.close();
    store.close();
  }

  private static byte[] readAll(CompletableFuture<ObjectContent> response) throws Exception {
    try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
      return content.stream().readAllBytes();
    }
  }

  @Test
  void aGetWithoutHeadersIsHedgedAtTheDeadlineAndTheLogSaysSo() throws Exception {
    store.faults.thenHang();
    try (CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));
      assertArrayEquals(store.content, readAll(response));

      assertEquals(1, store.metrics.get(Metric.HEDGED_GETS));
      assertEquals(1, store.metrics.get(Metric.HEDGES_WON));
      assertEquals(
          "GET "
              + store.all.describe()
              + ": attempt 2 (HEDGE) sent as a hedge after 250 ms without headers",
          logs.line("(HEDGE) sent"));
      String won = logs.line("the hedge won");
      assertTrue(
          won.startsWith("GET " + store.all.describe() + ": attempt 2 (HEDGE) answered"), won);
      assertTrue(won.endsWith("1 attempt and 1 hedge"), won);
    }
  }

  @Test
  void aThrottledGetIsRetriedAfterABackoffAndCutsItsBucketsLimit() throws Exception {
    store.faults.thenFail(
        new ObjectStoreException(
            "GET s3://bucket/key: slow down", 503, "SlowDown", "r", true, null));
    try (CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      assertFalse(response.isDone(), "the retry waits for its backoff");
      store.clock.advance(Duration.ofMillis(RetryPolicy.THROTTLED_BASE_FACTOR));
      assertArrayEquals(store.content, readAll(response));

      assertEquals(1, store.metrics.get(Metric.RETRIES));
      assertEquals(1, store.metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));
      assertTrue(
          logs.line("retried in")
              .startsWith("GET " + store.all.describe() + ": attempt 1 (TRY) failed (THROTTLED)"),
          () -> logs.debugLines().toString());
      assertTrue(
          logs.line("concurrency limit").contains("limit of bucket bucket cut to 1"),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void anErrorThrownBySendingFailsTheCallAtOnceAndIsNotRetried() throws Exception {
    OutOfMemoryError outOfMemory = new OutOfMemoryError("scripted");
    store.faults.thenThrow(outOfMemory);
    CompletableFuture<ObjectContent> response = client.getObject(store.all);
    assertTrue(response.isCompletedExceptionally(), "failed at once, with no retry planned");
    ExecutionException e = assertThrows(ExecutionException.class, response::get);
    assertSame(outOfMemory, e.getCause(), "the Error itself, not a transient IOException");

    store.clock.advance(Duration.ofSeconds(10)); // past any backoff, hedge or timeout
    assertEquals(1, store.faults.sentGets().size());
    assertEquals(0, store.metrics.get(Metric.RETRIES));
    assertEquals(0, store.metrics.get(Metric.HEDGED_GETS));
  }

  @Test
  void aRuntimeExceptionThrownBySendingIsRetriedAsBefore() throws Exception {
    // Connectors' clients throw UncheckedIOException, and blocking SDK calls SdkException.
    store.faults.thenThrow(new UncheckedIOException(new SocketException("Connection reset")));
    CompletableFuture<ObjectContent> response = client.getObject(store.all);
    store.clock.advance(CONFIG.maxDelay());
    assertArrayEquals(store.content, readAll(response));
    assertEquals(2, store.faults.sentGets().size());
    assertEquals(1, store.metrics.get(Metric.RETRIES));
  }

  @Test
  void aBodyCutPartWayIsNotResumedHere() throws Exception {
    store.faults.thenCutBodyAfter(1_000);
    try (ObjectContent content = client.getObject(store.all).get(10, TimeUnit.SECONDS)) {
      assertThrows(IOException.class, () -> content.stream().readAllBytes());
    }
    assertEquals(1, store.faults.sentGets().size());
    assertEquals(0, store.metrics.get(Metric.RETRIES));
  }

  @Test
  void aLateAnswerOfAnAbandonedBlockingCallIsClosedAndTheRetryAnswers() throws Exception {
    ObjectClientConfiguration noHedges = CONFIG.toBuilder().hedgeMaxCopies(0).build();
    ResponseTimes times = new ResponseTimes(noHedges);
    CallContext blocking =
        CallContext.of(new RetryPolicy(noHedges), store.clock, store.clock, times, store.metrics);
    store.faults.thenHang();
    try (RetryingCalls calls =
        new RetryingCalls(
            new HedgingObjectClient(
                new LimitingObjectClient(
                    new BlockingStyle(store.faults),
                    noHedges,
                    store.clock,
                    store.clock,
                    store.metrics),
                blocking),
            blocking)) {
      CompletableFuture<ObjectContent> response = calls.getObject(store.all);
      store.clock.advance(Duration.ofNanos(times.headersTimeoutNanos(1)));
      CompletableFuture<ObjectContent> abandoned = store.faults.hungGets().get(0);
      assertFalse(abandoned.isCancelled(), "a blocking call is left to end by itself");

      store.clock.advance(noHedges.maxDelay());
      assertArrayEquals(store.content, readAll(response));
      assertEquals(2, store.faults.sentGets().size());
      assertEquals(1, store.metrics.get(Metric.RETRIES));

      abandoned.complete(store.store.getObject(store.all).get(10, TimeUnit.SECONDS));
      assertEquals(0, store.store.openContents(), "the late answer was closed, not returned");
    }
  }
}
