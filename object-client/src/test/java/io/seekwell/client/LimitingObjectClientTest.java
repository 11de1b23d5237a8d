package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LimitingObjectClient} alone, over a scripted store on a clock the test moves: one place
 * under the bucket's limit and two connections, or one connection.
 */
class LimitingObjectClientTest {

  private static final ObjectClientConfiguration ONE_IN_FLIGHT =
      ScriptedFaultsObjectClient.fastRetries().concurrencyMax(1).build();
  private static final ObjectClientConfiguration ONE_CONNECTION =
      ScriptedFaultsObjectClient.fastRetries().maxConnections(1).build();

  private final ScriptedStore store = new ScriptedStore(31, 10_000);

  @AfterEach
  void close() {
    store.close();
  }

  private LimitingObjectClient client(ObjectClient delegate, ObjectClientConfiguration config) {
    return new LimitingObjectClient(delegate, config, store.clock, store.clock, store.metrics);
  }

  /** A GET of {@code [start, end]} as {@code attempt}, whose sends are counted in {@code sent}. */
  private GetRequest get(long start, long end, String attempt, AtomicInteger sent) {
    long deadline = store.clock.nanos() + Duration.ofSeconds(10).toNanos();
    return store
        .all
        .withRange(ByteRange.of(start, end))
        .withOptions(RequestOptions.none().withAttempt(new Named(attempt, deadline, sent)));
  }

  /** An attempt named {@code name} that counts in {@code sent} how often it is sent. */
  private record Named(String name, long deadlineNanos, AtomicInteger sends)
      implements RequestAttempt {
    @Override
    public boolean sent() {
      sends.incrementAndGet();
      return true;
    }
  }

  /**
   * An attempt given up while it waited, as a hedge cancelled when another attempt answered: asked
   * whether it may be sent (counted in {@code asks}), it says no.
   */
  private record GivenUp(long deadlineNanos, AtomicInteger asks) implements RequestAttempt {
    @Override
    public String name() {
      return "attempt 2 (HEDGE)";
    }

    @Override
    public boolean sent() {
      asks.incrementAndGet();
      return false;
    }
  }

  /** An attempt that throws when asked whether it may be sent. */
  private record Throwing(long deadlineNanos, RuntimeException thrown) implements RequestAttempt {
    @Override
    public String name() {
      return "attempt 1 (TRY)";
    }

    @Override
    public boolean sent() {
      throw thrown;
    }
  }

  private GetRequest get(long start, long end, RequestAttempt attempt) {
    return store
        .all
        .withRange(ByteRange.of(start, end))
        .withOptions(RequestOptions.none().withAttempt(attempt));
  }

  private long inTenSeconds() {
    return store.clock.nanos() + Duration.ofSeconds(10).toNanos();
  }

  private void assertBytes(long start, long end, CompletableFuture<ObjectContent> response)
      throws Exception {
    try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
      assertArrayEquals(
          Arrays.copyOfRange(store.content, (int) start, (int) end + 1), content.readAllBytes());
    }
  }

  @Test
  void aRequestOverTheLimitIsSentAndToldSoOnlyOnceTheFirstIsAnswered() throws Exception {
    store.faults.thenHang();
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_IN_FLIGHT);
        CapturedLogs logs = new CapturedLogs()) {
      client.getObject(get(0, 99, "attempt 1 (TRY)", sent));
      CompletableFuture<ObjectContent> waiting =
          client.getObject(get(100, 199, "attempt 1 (TRY)", sent));
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(1, sent.get(), "the second is not sent, and not told it was");
      assertEquals(1, store.metrics.get(Metric.REQUESTS_QUEUED));
      assertTrue(logs.line("waits for a place").contains("[100-199]: attempt 1 (TRY) waits"));

      store.faults.hungGets().get(0).completeExceptionally(new SocketException("reset"));
      assertEquals(2, store.faults.sentGets().size());
      assertEquals(2, sent.get());
      assertBytes(100, 199, waiting);
    }
  }

  @Test
  void aCancelledWaitIsNeverSent() throws Exception {
    store.faults.thenHang();
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION);
        CapturedLogs logs = new CapturedLogs()) {
      client.getObject(get(0, 99, "attempt 1 (TRY)", sent));
      client.getObject(get(100, 199, "attempt 1 (TRY)", sent)).cancel(true);
      CompletableFuture<ObjectContent> third =
          client.getObject(get(200, 299, "attempt 1 (TRY)", sent));
      assertTrue(
          logs.line("[200-299]: attempt 1 (TRY) waits").endsWith("1 in flight, 1 waiting)"),
          "the cancelled wait left the queue at once: " + logs.debugLines());

      store.faults.hungGets().get(0).cancel(true); // the first gives its connection back
      assertBytes(200, 299, third);
      assertEquals(2, store.faults.sentGets().size(), "the cancelled one was skipped");
      assertEquals(2, sent.get());
    }
  }

  @Test
  void aWaitPastTheAttemptsDeadlineFailsAndIsNotRetryable() {
    store.faults.thenHang();
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION)) {
      client.getObject(get(0, 99, "attempt 1 (TRY)", sent));
      CompletableFuture<ObjectContent> late =
          client.getObject(get(100, 199, "attempt 3 (HEDGE)", sent));
      store.clock.advance(Duration.ofSeconds(10));

      ExecutionException e = assertThrows(ExecutionException.class, late::get);
      ObjectStoreException notSent = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertTrue(
          notSent
              .getMessage()
              .contains("[100-199]: not sent by its call's deadline, 10000 ms after"),
          notSent::toString);
      assertFalse(notSent.isRetryable());
      assertEquals(1, store.faults.sentGets().size());
    }
  }

  @Test
  void aGetHoldsItsConnectionUntilItsBodyIsClosedAndAHeadUntilItIsAnswered() throws Exception {
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION)) {
      ObjectMetadata metadata = client.headObject(HeadRequest.of(ScriptedStore.OBJECT)).get();
      assertEquals(store.content.length, metadata.length());
      ObjectContent open = client.getObject(get(0, 99, "attempt 1 (TRY)", sent)).get();
      CompletableFuture<ObjectContent> next =
          client.getObject(get(100, 199, "attempt 1 (TRY)", sent));
      open.stream().readAllBytes();
      assertFalse(next.isDone(), "read to its end, not closed: the connection is not free");

      open.close();
      assertBytes(100, 199, next);
      assertEquals(1, store.metrics.get(Metric.REQUESTS_QUEUED), "the HEAD waited for nothing");
    }
  }

  @Test
  void aCancelledBlockingCallKeepsItsConnectionUntilItEndsAndItsAnswerIsClosed() throws Exception {
    store.faults.thenHang();
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(new BlockingStyle(store.faults), ONE_CONNECTION)) {
      client.getObject(get(0, 99, "attempt 1 (TRY)", sent)).cancel(true);
      CompletableFuture<ObjectContent> next =
          client.getObject(get(100, 199, "attempt 1 (TRY)", sent));
      CompletableFuture<ObjectContent> hung = store.faults.hungGets().get(0);
      assertFalse(hung.isCancelled(), "a blocking call is left to end by itself");
      assertFalse(next.isDone(), "it still holds the connection");

      hung.complete(store.store.getObject(store.all.withRange(ByteRange.of(0, 99))).get());
      assertBytes(100, 199, next);
      assertEquals(0, store.store.openContents(), "the late answer was closed, not leaked");
    }
  }

  @Test
  void aThrottledAnswerCutsTheBucketsLimitAndTheLogNamesTheAttempt() throws Exception {
    store.faults.thenFail(
        new ObjectStoreException(
            "GET s3://bucket/key: slow down", 503, "SlowDown", "r", true, null));
    AtomicInteger sent = new AtomicInteger();
    ObjectClientConfiguration many = ScriptedFaultsObjectClient.fastRetries().build();
    try (LimitingObjectClient client = client(store.faults, many);
        CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> throttled =
          client.getObject(get(0, 99, "attempt 2 (HEDGE)", sent));
      assertThrows(ExecutionException.class, throttled::get);
      assertEquals(1, store.metrics.get(Metric.CONCURRENCY_LIMIT_CUTS));
      assertTrue(
          logs.line("throttled")
              .startsWith(
                  "GET s3://bucket/key [0-99]: attempt 2 (HEDGE) throttled, concurrency limit of"
                      + " bucket bucket cut to "),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void aSendThatThrowsFailsTheRequestAndGivesItsPlacesBack() throws Exception {
    store.faults.thenThrow(new UncheckedIOException(new SocketException("Connection reset")));
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION)) {
      CompletableFuture<ObjectContent> thrown =
          client.getObject(get(0, 99, "attempt 1 (TRY)", sent));
      ExecutionException e = assertThrows(ExecutionException.class, thrown::get);
      assertInstanceOf(UncheckedIOException.class, e.getCause());
      assertBytes(100, 199, client.getObject(get(100, 199, "attempt 1 (TRY)", sent)));
      assertEquals(0, store.metrics.get(Metric.REQUESTS_QUEUED));
    }
  }

  @Test
  void anAttemptGivenUpWhileItWaitedIsNeverSentAndGivesItsPlacesBack() throws Exception {
    store.faults.thenHang();
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger asks = new AtomicInteger();
    try (LimitingObjectClient client = client(new BlockingStyle(store.faults), ONE_CONNECTION);
        CapturedLogs logs = new CapturedLogs()) {
      client.getObject(get(0, 99, "attempt 1 (TRY)", sent));
      CompletableFuture<ObjectContent> hedge =
          client.getObject(get(100, 199, new GivenUp(inTenSeconds(), asks)));
      CompletableFuture<ObjectContent> next =
          client.getObject(get(200, 299, "attempt 1 (TRY)", sent));

      store.faults.hungGets().get(0).completeExceptionally(new SocketException("reset"));
      assertEquals(1, asks.get(), "asked once, when its place came");
      assertTrue(hedge.isCancelled(), "answered as given up");
      assertBytes(200, 299, next);
      assertEquals(2, store.faults.sentGets().size(), "the given-up attempt was never sent");
      assertTrue(
          logs.line("given up before it was sent").contains("[100-199]: attempt 2 (HEDGE)"),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void anAttemptThatThrowsWhenAskedFailsTheRequestUnsentAndGivesItsPlacesBack() throws Exception {
    IllegalStateException thrown = new IllegalStateException("scripted");
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION)) {
      CompletableFuture<ObjectContent> failed =
          client.getObject(get(0, 99, new Throwing(inTenSeconds(), thrown)));
      ExecutionException e = assertThrows(ExecutionException.class, failed::get);
      assertSame(thrown, e.getCause());
      assertBytes(100, 199, client.getObject(get(100, 199, "attempt 1 (TRY)", sent)));
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(0, store.metrics.get(Metric.REQUESTS_QUEUED), "its connection was free");
    }
  }

  @Test
  void theWrappedClientIsSentTheRequestWithoutItsAttempt() throws Exception {
    AtomicInteger sent = new AtomicInteger();
    try (LimitingObjectClient client = client(store.faults, ONE_CONNECTION)) {
      assertBytes(0, 99, client.getObject(get(0, 99, "attempt 1 (TRY)", sent)));
      assertEquals(1, sent.get());
      assertTrue(store.faults.sentGets().get(0).options().attempt().isEmpty());
    }
  }
}
