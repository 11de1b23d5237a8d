package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link HedgingObjectClient} alone, over a scripted store whose requests are sent at once (or, to
 * show what waiting does, never said to be sent), on a clock the test moves. Each try ends with an
 * answer or a failure: it is never retried here.
 */
class HedgingObjectClientTest {

  private static final ObjectClientConfiguration CONFIG =
      ScriptedFaultsObjectClient.fastRetries().build();

  private final ScriptedStore store = new ScriptedStore(53, 30_000);
  private final ResponseTimes times = new ResponseTimes(CONFIG);

  @AfterEach
  void close() {
    store.close();
  }

  private HedgingObjectClient client(ObjectClientConfiguration config, boolean tellsSent) {
    return new HedgingObjectClient(
        new Below(store.faults, tellsSent),
        CallContext.of(new RetryPolicy(config), store.clock, store.clock, times, store.metrics));
  }

  private HedgingObjectClient client() {
    return client(CONFIG, true);
  }

  private static SocketException reset() {
    return new SocketException("Connection reset");
  }

  @Test
  void aGetWithoutHeadersIsHedgedAtTheDeadlineAndTheHedgeWins() throws Exception {
    store.faults.thenHang();
    try (HedgingObjectClient client = client();
        CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));
      try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
        assertArrayEquals(store.content, content.readAllBytes());
      }
      assertEquals(2, store.faults.sentGets().size());
      assertTrue(store.faults.hungGets().get(0).isCancelled(), "the first is cancelled");
      assertEquals(1, store.metrics.get(Metric.HEDGED_GETS));
      assertEquals(1, store.metrics.get(Metric.HEDGES_WON));
      assertTrue(logs.line("the hedge won").endsWith("1 attempt and 1 hedge"));
    }
  }

  @Test
  void anAttemptThatWaitsBelowIsNotHedged() {
    store.faults.thenHang();
    try (HedgingObjectClient client = client(CONFIG, false)) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofSeconds(10));
      assertFalse(response.isDone(), "no headers timeout either: it was never sent");
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(0, store.metrics.get(Metric.HEDGED_GETS));
    }
  }

  @Test
  void theTryFailsWithTheLastErrorOnlyOnceEveryCopyHasFailed() {
    store.faults.thenHang().thenFail(reset());
    try (HedgingObjectClient client = client()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));
      assertEquals(2, store.faults.sentGets().size());
      assertFalse(response.isDone(), "the hedge failed, the first is still in flight");

      SocketException last = reset();
      store.faults.hungGets().get(0).completeExceptionally(last);
      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      assertSame(last, e.getCause(), "not retried here: the retrier above decides");
      assertEquals(0, store.metrics.get(Metric.RETRIES));
    }
  }

  @Test
  void anErrorNotRetriedFailsTheTryAtOnceAndCancelsTheOtherCopies() {
    FileNotFoundException missing = new FileNotFoundException("s3://bucket/key");
    store.faults.thenHang().thenFail(missing);
    try (HedgingObjectClient client = client()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));

      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      assertSame(missing, e.getCause());
      assertTrue(store.faults.hungGets().get(0).isCancelled());
    }
  }

  @Test
  void anAttemptWithoutHeadersIsGivenUpAtItsTimeoutWhichGrowsWithTheTries() {
    ObjectClientConfiguration noHedges = CONFIG.toBuilder().hedgeMaxCopies(0).build();
    store.faults.thenHang();
    long start = store.clock.nanos();
    CallTries tries = new CallTries(start, start + Duration.ofSeconds(60).toNanos());
    tries.nextTry();
    tries.nextTry(); // the second try of a call retried above
    try (HedgingObjectClient client = client(noHedges, true);
        CapturedLogs logs = new CapturedLogs()) {
      GetRequest second = store.all.withOptions(RequestOptions.none().withAttempt(tries));
      CompletableFuture<ObjectContent> response = client.getObject(second);
      long timeout = times.headersTimeoutNanos(2);
      assertEquals(
          "GET " + store.all.describe() + ": attempt 1 (TRY) sent as a retry",
          logs.line("sent as a retry"));
      store.clock.advance(Duration.ofNanos(timeout - 1));
      assertFalse(response.isDone());

      store.clock.advance(Duration.ofNanos(1));
      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      ObjectStoreException stalled = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertEquals(ErrorKind.STALLED, stalled.kind());
      assertTrue(store.faults.hungGets().get(0).isCancelled());
      assertEquals("attempt 1 (TRY)", tries.lastFailed());
      assertEquals(1, store.metrics.get(Metric.ERRORS_NETWORK));
    }
  }

  @Test
  void eachAttemptNamesItselfAndItsHeadersTimeoutToTheClientBelow() throws Exception {
    store.faults.thenHang();
    Below below = new Below(store.faults, true);
    try (HedgingObjectClient client =
        new HedgingObjectClient(
            below,
            CallContext.of(
                new RetryPolicy(CONFIG), store.clock, store.clock, times, store.metrics))) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS));
      response.get(10, TimeUnit.SECONDS).close();

      assertEquals(
          List.of("attempt 1 (TRY)", "attempt 2 (HEDGE)"),
          below.sent.stream().map(options -> options.attempt().orElseThrow().name()).toList());
      assertEquals(
          Duration.ofNanos(times.headersTimeoutNanos(1)),
          below.sent.get(1).headersTimeout().orElseThrow());
    }
  }

  /**
   * The client below the hedger: it tells each attempt it is sent at once ({@code tellsSent}) or
   * never (as one waiting for a place), and records the options of each GET.
   */
  private static final class Below implements ObjectClient {
    private final ObjectClient delegate;
    private final boolean tellsSent;
    private final List<RequestOptions> sent = new CopyOnWriteArrayList<>();

    Below(ObjectClient delegate, boolean tellsSent) {
      this.delegate = delegate;
      this.tellsSent = tellsSent;
    }

    @Override
    public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
      if (tellsSent) {
        request.options().attempt().ifPresent(RequestAttempt::sent);
      }
      return delegate.headObject(request);
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      if (tellsSent) {
        request.options().attempt().ifPresent(RequestAttempt::sent);
      }
      sent.add(request.options());
      return delegate.getObject(request);
    }

    @Override
    public boolean freesConnectionOnCancel() {
      return delegate.freesConnectionOnCancel();
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  @Test
  void aClientBelowThatThrowsFailsTheTryInsteadOfLeavingItInFlight() throws Exception {
    store.faults.thenThrow(new UncheckedIOException(reset()));
    try (HedgingObjectClient client = client()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      assertTrue(response.isCompletedExceptionally(), "failed at once, not left waiting");
      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      assertInstanceOf(IOException.class, e.getCause(), "a failure the retrier above classifies");

      store.clock.advance(Duration.ofSeconds(10)); // past any hedge deadline or timeout
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(0, store.metrics.get(Metric.HEDGED_GETS));
    }
  }
}
