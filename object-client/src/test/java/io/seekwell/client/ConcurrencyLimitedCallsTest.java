package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The resilience layer's limits of requests in flight, on a clock the test moves: each bucket's
 * adaptive limit, and the bound on the connections a client holds at once ({@code
 * client.max.connections}): what holds one, when it is given back, and what waits for it.
 */
class ConcurrencyLimitedCallsTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");
  private static final byte[] CONTENT = TestData.randomBytes(13, 100_000);
  private static final ObjectClientConfiguration ONE_AT_A_TIME =
      ScriptedFaultsObjectClient.fastRetries().hedgeMaxCopies(0).concurrencyMax(1).build();
  private static final ObjectClientConfiguration TWO_CONNECTIONS =
      ONE_AT_A_TIME.toBuilder().hedgeMaxCopies(2).concurrencyMax(1024).maxConnections(2).build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  private final ManualClock clock = new ManualClock();

  {
    store.put(OBJECT, CONTENT);
  }

  /** The response times of the last client built, which its hedges and timeouts follow. */
  private ResponseTimes times;

  private RetryingObjectClient client(ObjectClientConfiguration configuration) {
    return client(faults, configuration);
  }

  private RetryingObjectClient client(ObjectClient delegate, ObjectClientConfiguration config) {
    times = new ResponseTimes(config);
    return new RetryingObjectClient(
        delegate, new RetryPolicy(config), metrics, clock, clock, times);
  }

  /** A client over {@link BlockingStyle} calls, with two connections. */
  private RetryingObjectClient blockingClient() {
    return client(new BlockingStyle(faults), TWO_CONNECTIONS);
  }

  @AfterEach
  void close() {
    clock.close();
  }

  private static GetRequest get(long start, long end, RequestOptions options) {
    return new GetRequest(OBJECT, ByteRange.of(start, end), Optional.empty(), options);
  }

  private static void assertBytes(long start, long end, CompletableFuture<ObjectContent> response)
      throws Exception {
    try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
      assertArrayEquals(
          Arrays.copyOfRange(CONTENT, (int) start, (int) end + 1), content.stream().readAllBytes());
    }
  }

  private List<ByteRange> sentRanges() {
    return faults.sentGets().stream().map(GetRequest::range).toList();
  }

  @Test
  void aGetOverTheLimitIsSentWhenAPlaceFreesAndItsHeadersTimeoutCountsFromThen() throws Exception {
    faults.thenHang().thenHang();
    try (RetryingObjectClient client = client(ONE_AT_A_TIME)) {
      CompletableFuture<ObjectContent> first = client.getObject(get(0, 99, RequestOptions.none()));
      CompletableFuture<ObjectContent> second =
          client.getObject(get(100, 199, RequestOptions.none()));
      assertEquals(List.of(ByteRange.of(0, 99)), sentRanges(), "the second waits");
      assertEquals(1, metrics.get(Metric.REQUESTS_QUEUED));

      long timeout = times.headersTimeoutNanos(1);
      clock.advance(Duration.ofNanos(timeout)); // the first times out; the second is sent, hangs
      assertEquals(List.of(ByteRange.of(0, 99), ByteRange.of(100, 199)), sentRanges());
      clock.advance(Duration.ofNanos(timeout - 1));
      assertFalse(faults.hungGets().get(1).isDone(), "its timeout counts from when it was sent");
      assertEquals(timeout, metrics.get(Metric.QUEUED_NANOS));

      clock.advance(Duration.ofNanos(1));
      assertTrue(faults.hungGets().get(1).isCancelled());
      assertBytes(0, 99, first);
      clock.advance(Duration.ofMillis(5)); // the second one's retry, after its backoff
      assertBytes(100, 199, second);
    }
  }

  @Test
  void aRetryThatWaitsForAPlaceIsLoggedAsSentOnlyOnceItIsSent() throws Exception {
    faults.thenHang().thenHang();
    try (RetryingObjectClient client = client(ONE_AT_A_TIME);
        CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> first = client.getObject(get(0, 99, RequestOptions.none()));
      client.getObject(get(100, 199, RequestOptions.none()));
      long timeout = times.headersTimeoutNanos(1);
      clock.advance(Duration.ofNanos(timeout)); // the first times out; the second takes its place
      clock.advance(Duration.ofNanos(timeout - 1)); // the first's retry waits for the place
      assertTrue(
          logs.line("[0-99]: attempt 2 (TRY) waits for a place").startsWith("GET s3://bucket/key"));
      assertTrue(
          logs.debugLines().stream().noneMatch(line -> line.contains("sent as a retry")),
          () -> "not sent yet: " + logs.debugLines());

      clock.advance(Duration.ofNanos(1)); // the second times out and gives the place back
      assertTrue(
          logs.line("[0-99]: attempt 2 (TRY) got a place after waiting")
              .startsWith("GET s3://bucket/key"));
      assertEquals(
          "GET s3://bucket/key [0-99]: attempt 2 (TRY) sent as a retry",
          logs.line("sent as a retry"));
      assertBytes(0, 99, first);
    }
  }

  @Test
  void aGetWaitingForAPlaceWhenTheClientClosesFailsInsteadOfWaitingForEver() {
    faults.thenHang();
    try (RetryingObjectClient client = client(ONE_AT_A_TIME);
        CapturedLogs logs = new CapturedLogs()) {
      client.getObject(get(0, 99, RequestOptions.none()));
      clock.close(); // closing: the scheduler takes no more tasks
      CompletableFuture<ObjectContent> waiting =
          client.getObject(get(100, 199, RequestOptions.none()));

      assertTrue(waiting.isCompletedExceptionally(), "failed at once");
      ExecutionException e = assertThrows(ExecutionException.class, waiting::get);
      ObjectStoreException failure = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertTrue(
          failure
              .getMessage()
              .startsWith("GET s3://bucket/key [100-199]: not sent: the client is closing"),
          failure.getMessage());
      assertEquals(1, sentRanges().size());
      assertTrue(
          logs.line("not scheduled")
              .startsWith(
                  "GET s3://bucket/key [100-199]: the deadline of the wait for a place not"
                      + " scheduled for attempt 1 (TRY), the client is closing"),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void demandGetsWaitingGoBeforePrefetchGetsWaiting() throws Exception {
    faults.thenHang();
    try (RetryingObjectClient client = client(ONE_AT_A_TIME)) {
      CompletableFuture<ObjectContent> holding =
          client.getObject(get(0, 99, RequestOptions.none()));
      CompletableFuture<ObjectContent> prefetch =
          client.getObject(get(1000, 1999, RequestOptions.none().asPrefetch()));
      CompletableFuture<ObjectContent> demand =
          client.getObject(get(5000, 5099, RequestOptions.none()));

      clock.advance(Duration.ofNanos(times.headersTimeoutNanos(1)));
      clock.advance(Duration.ofMillis(5)); // the first one's retry, after its backoff
      assertEquals(
          List.of(
              ByteRange.of(0, 99),
              ByteRange.of(5000, 5099),
              ByteRange.of(1000, 1999),
              ByteRange.of(0, 99)),
          sentRanges());
      assertBytes(5000, 5099, demand);
      assertBytes(1000, 1999, prefetch);
      assertBytes(0, 99, holding);
    }
  }

  @Test
  void aCancelledGetLeavesTheQueueUnsent() throws Exception {
    faults.thenHang();
    try (RetryingObjectClient client = client(ONE_AT_A_TIME)) {
      CompletableFuture<ObjectContent> holding =
          client.getObject(get(0, 99, RequestOptions.none()));
      client.getObject(get(100, 199, RequestOptions.none())).cancel(true);

      clock.advance(Duration.ofNanos(times.headersTimeoutNanos(1)));
      clock.advance(Duration.ofMillis(5));
      assertBytes(0, 99, holding);
      assertEquals(List.of(ByteRange.of(0, 99), ByteRange.of(0, 99)), sentRanges());
    }
  }

  @Test
  void aGetWaitingPastTheRetryDeadlineFailsNamingTheBucketAndItsLimit() {
    faults.thenHang();
    ObjectClientConfiguration patient =
        ONE_AT_A_TIME.toBuilder()
            .firstByteTimeout(Duration.ofMinutes(5))
            .stallFloor(Duration.ofMinutes(1))
            .build();
    try (RetryingObjectClient client = client(patient)) {
      client.getObject(get(0, 99, RequestOptions.none()));
      CompletableFuture<ObjectContent> waiting =
          client.getObject(get(100, 199, RequestOptions.none()));
      clock.advance(Duration.ofSeconds(59));
      assertFalse(waiting.isDone());

      clock.advance(Duration.ofSeconds(1));
      ExecutionException e = assertThrows(ExecutionException.class, waiting::get);
      ObjectStoreException failure = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertTrue(
          failure
              .getMessage()
              .contains(
                  "GET s3://bucket/key [100-199]: not sent by its call's deadline, 60000 ms after"
                      + " it began to wait"),
          failure.getMessage());
      assertTrue(
          failure.getMessage().contains("bucket bucket: limit 1 of at most 1, 1 in flight"),
          failure.getMessage());
      assertEquals(1, sentRanges().size());
    }
  }

  @Test
  void aThrottledAnswerCutsTheBucketsLimitAndSuccessesRaiseItAgain() throws Exception {
    ObjectStoreException slowDown =
        new ObjectStoreException(
            "GET s3://bucket/key: slow down", 503, "SlowDown", "r", true, null);
    ObjectClientConfiguration throttled = ONE_AT_A_TIME.toBuilder().concurrencyMax(64).build();
    faults.thenHang().thenHang().thenHang().thenFail(slowDown);
    try (RetryingObjectClient client = client(throttled)) {
      for (int i = 0; i < 3; i++) {
        client.getObject(get(0, 9, RequestOptions.none())); // held in flight
      }
      clock.advance(Duration.ofMillis(1));
      CompletableFuture<ObjectContent> response =
          client.getObject(get(10, 19, RequestOptions.none()));
      assertEquals(Map.of("bucket", 3), client.concurrencyLimits(), "0.75 of the 4 in flight");
      assertEquals(1, metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));
      // The three held time out, and their places go to the throttled one's retry and to them.
      clock.advance(Duration.ofNanos(times.headersTimeoutNanos(1)));
      clock.advance(Duration.ofMillis(100));
      assertBytes(10, 19, response);
      for (int i = 0; i < 20; i++) {
        assertBytes(20, 29, client.getObject(get(20, 29, RequestOptions.none())));
      }
      assertTrue(
          client.concurrencyLimits().get("bucket") >= 2, client.concurrencyLimits()::toString);
    }
  }

  @Test
  void aGetHoldsItsConnectionUntilItsBodyIsClosed() throws Exception {
    try (RetryingObjectClient client = client(TWO_CONNECTIONS)) {
      ObjectContent first = answer(client.getObject(get(0, 99, RequestOptions.none())));
      ObjectContent second = answer(client.getObject(get(100, 199, RequestOptions.none())));
      CompletableFuture<ObjectContent> third =
          client.getObject(get(200, 299, RequestOptions.none()));
      CompletableFuture<ObjectContent> fourth =
          client.getObject(get(300, 399, RequestOptions.none()));
      assertEquals(2, sentRanges().size(), "two bodies are open: the others wait");
      assertEquals(2, metrics.get(Metric.REQUESTS_QUEUED));

      first.close(); // closed before its end
      assertEquals(3, sentRanges().size());
      try (InputStream body = second.stream()) {
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 100, 200), body.readAllBytes());
        assertEquals(3, sentRanges().size(), "read, not closed: its connection is not free yet");
      }
      assertEquals(4, sentRanges().size());
      try (ObjectContent content = answer(third)) {
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 200, 300), content.readAllBytes());
      }
      answer(fourth).close();
      assertEquals(0, metrics.get(Metric.HEDGED_GETS), "waiting for a connection is not hedged");
    }
  }

  @Test
  void aHeadHoldsItsConnectionUntilItIsAnswered() throws Exception {
    try (RetryingObjectClient client = client(TWO_CONNECTIONS)) {
      ObjectContent open = answer(client.getObject(get(0, 99, RequestOptions.none())));
      for (int i = 0; i < 3; i++) {
        ObjectMetadata metadata =
            client
                .headObject(new HeadRequest(OBJECT, RequestOptions.none()))
                .get(10, TimeUnit.SECONDS);
        assertEquals(CONTENT.length, metadata.length());
      }
      assertEquals(0, metrics.get(Metric.REQUESTS_QUEUED), "one connection was always free");
      open.close();
    }
  }

  @Test
  void anAbandonedBlockingCallKeepsItsConnectionUntilItEndsByItself() throws Exception {
    faults.thenHang();
    try (RetryingObjectClient client = blockingClient()) {
      CompletableFuture<ObjectContent> stalled =
          client.getObject(get(0, 99, RequestOptions.none()));
      clock.advance(Duration.ofNanos(times.hedgeDeadlineNanos()));
      assertEquals(1, metrics.get(Metric.HEDGED_GETS));
      try (ObjectContent content = answer(stalled)) {
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 0, 100), content.readAllBytes());
      }
      CompletableFuture<ObjectContent> hung = faults.hungGets().get(0);
      assertFalse(hung.isCancelled(), "a blocking call is left to end by itself");

      CompletableFuture<ObjectContent> next =
          client.getObject(get(100, 199, RequestOptions.none()));
      ObjectContent open = answer(next);
      CompletableFuture<ObjectContent> waiting =
          client.getObject(get(200, 299, RequestOptions.none()));
      assertEquals(3, sentRanges().size(), "the abandoned call and the open body hold both");

      // The SDK ends the stalled call at its headers timeout: its connection is free again.
      hung.completeExceptionally(
          new ObjectStoreException("api call timeout", 0, null, null, true, null));
      assertEquals(4, sentRanges().size());
      try (ObjectContent content = answer(waiting)) {
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 200, 300), content.readAllBytes());
      }
      open.close();
      assertEquals(0, metrics.get(Metric.RETRIES));
    }
  }

  @Test
  void aLateAnswerOfAnAbandonedBlockingCallIsDiscardedAndLeavesTheHedgeDeadline() throws Exception {
    faults.thenHang();
    try (RetryingObjectClient client = blockingClient()) {
      CompletableFuture<ObjectContent> stalled =
          client.getObject(get(0, 99, RequestOptions.none()));
      clock.advance(Duration.ofNanos(times.hedgeDeadlineNanos()));
      answer(stalled).close(); // the hedge answered at once
      long deadline = times.hedgeDeadlineNanos();

      clock.advance(Duration.ofSeconds(20));
      ObjectContent late = store.getObject(get(0, 99, RequestOptions.none())).get();
      faults.hungGets().get(0).complete(late);
      assertEquals(deadline, times.hedgeDeadlineNanos(), "20 s is not the store's pace");
      assertEquals(
          0, metrics.get(Metric.REQUESTS_QUEUED), "and its connection given back: none waits");
      ObjectContent one = answer(client.getObject(get(100, 199, RequestOptions.none())));
      ObjectContent two = answer(client.getObject(get(200, 299, RequestOptions.none())));
      assertEquals(0, metrics.get(Metric.REQUESTS_QUEUED));
      one.close();
      two.close();
    }
  }

  @Test
  void aCancelledAsynchronousCallGivesItsConnectionBackAtOnce() throws Exception {
    faults.thenHang();
    try (RetryingObjectClient client = client(TWO_CONNECTIONS)) {
      CompletableFuture<ObjectContent> stalled =
          client.getObject(get(0, 99, RequestOptions.none()));
      clock.advance(Duration.ofNanos(times.hedgeDeadlineNanos()));
      answer(stalled).close();
      assertTrue(faults.hungGets().get(0).isCancelled());

      ObjectContent open = answer(client.getObject(get(100, 199, RequestOptions.none())));
      ObjectContent another = answer(client.getObject(get(200, 299, RequestOptions.none())));
      assertEquals(0, metrics.get(Metric.REQUESTS_QUEUED), "the cancelled call holds nothing");
      open.close();
      another.close();
    }
  }

  private static ObjectContent answer(CompletableFuture<ObjectContent> response) throws Exception {
    return response.get(10, TimeUnit.SECONDS);
  }
}
