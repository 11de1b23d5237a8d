package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestAttempt;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RetryingCalls} alone, straight over a scripted store (no hedging, no limits), on a clock
 * the test moves: each GET the store sees is one try.
 */
class RetryingCallsTest {

  private static final ObjectClientConfiguration CONFIG =
      ScriptedFaultsObjectClient.fastRetries().maxAttempts(3).build();

  private final ScriptedStore store = new ScriptedStore(41, 20_000);
  private final CallContext context =
      CallContext.of(
          new RetryPolicy(CONFIG),
          store.clock,
          store.clock,
          new ResponseTimes(CONFIG),
          store.metrics);

  @AfterEach
  void close() {
    store.close();
  }

  private RetryingCalls client(ObjectClient delegate) {
    return new RetryingCalls(delegate, context);
  }

  private static SocketException reset() {
    return new SocketException("Connection reset");
  }

  @Test
  void aRetryableFailureIsRetriedAfterItsBackoffAndTheLogNamesTheTry() throws Exception {
    store.faults.thenFail(reset());
    try (RetryingCalls client = client(store.faults);
        CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      assertFalse(response.isDone(), "the retry waits for its backoff");
      assertEquals(1, store.faults.sentGets().size());

      store.clock.advance(CONFIG.maxDelay());
      try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
        assertArrayEquals(store.content, content.readAllBytes());
      }
      assertEquals(2, store.faults.sentGets().size());
      assertEquals(1, store.metrics.get(Metric.RETRIES));
      assertTrue(
          logs.line("retried in")
              .startsWith("GET " + store.all.describe() + ": try 1 failed (TRANSIENT), retried in"),
          () -> logs.debugLines().toString());
    }
  }

  @Test
  void anErrorThatIsNotRetriedFailsTheCallAtOnce() {
    FileNotFoundException missing = new FileNotFoundException("s3://bucket/key");
    store.faults.thenFail(missing);
    try (RetryingCalls client = client(store.faults)) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      assertSame(missing, e.getCause());
      store.clock.advance(Duration.ofSeconds(10));
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(0, store.metrics.get(Metric.RETRIES));
    }
  }

  @Test
  void theCallGivesUpAfterItsLastAttemptSayingWhatItTried() {
    store.faults.thenFail(reset()).thenFail(reset()).thenFail(reset());
    try (RetryingCalls client = client(store.faults)) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(CONFIG.maxDelay());
      store.clock.advance(CONFIG.maxDelay());

      ExecutionException e = assertThrows(ExecutionException.class, response::get);
      ObjectStoreException gaveUp = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertEquals("Connection reset (gave up after 3 attempts)", gaveUp.getMessage());
      assertFalse(gaveUp.isRetryable(), "so that no resume sends it again");
      assertEquals(3, store.faults.sentGets().size());
      assertEquals(2, store.metrics.get(Metric.RETRIES));
    }
  }

  @Test
  void cancellingTheCallCancelsItsTryInFlight() {
    store.faults.thenHang();
    try (RetryingCalls client = client(store.faults)) {
      client.getObject(store.all).cancel(true);
      assertTrue(store.faults.hungGets().get(0).isCancelled());
    }
  }

  @Test
  void aCallCancelledDuringItsBackoffSendsNoOtherTry() {
    store.faults.thenFail(reset());
    try (RetryingCalls client = client(store.faults)) {
      client.getObject(store.all).cancel(true);
      store.clock.advance(Duration.ofSeconds(10));
      assertEquals(1, store.faults.sentGets().size());
      assertEquals(1, store.metrics.get(Metric.RETRIES), "the retry was planned, not sent");
    }
  }

  @Test
  void everyTryCarriesTheCallsTriesDownToTheClientBelow() throws Exception {
    store.faults.thenFail(reset());
    Recording below = new Recording(store.faults);
    try (RetryingCalls client = client(below)) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      store.clock.advance(CONFIG.maxDelay());
      response.get(10, TimeUnit.SECONDS).close();

      assertEquals(2, below.attempts.size());
      CallTries tries = assertInstanceOf(CallTries.class, below.attempts.get(0));
      assertSame(tries, below.attempts.get(1), "one call, two tries");
      assertEquals(2, tries.tries());
      assertEquals("try 2", tries.name());
      assertEquals(Duration.ofSeconds(60).toNanos(), tries.deadlineNanos() - tries.startNanos());
    }
  }

  /** Another client's requests, recording the attempt each GET names. */
  private static final class Recording implements ObjectClient {
    private final ObjectClient delegate;
    private final List<RequestAttempt> attempts = new CopyOnWriteArrayList<>();

    Recording(ObjectClient delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
      return delegate.headObject(request);
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      attempts.add(request.options().attempt().orElseThrow());
      return delegate.getObject(request);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  @Test
  void aTryThatThrowsInsteadOfAnsweringIsRetried() throws Exception {
    store.faults.thenThrow(new UncheckedIOException(reset()));
    try (RetryingCalls client = client(store.faults)) {
      CompletableFuture<ObjectContent> response = client.getObject(store.all);
      assertFalse(response.isDone(), "the retry waits for its backoff");
      store.clock.advance(CONFIG.maxDelay());
      try (ObjectContent content = response.get(10, TimeUnit.SECONDS)) {
        assertArrayEquals(store.content, content.readAllBytes());
      }
      assertEquals(2, store.faults.sentGets().size());
      assertEquals(1, store.metrics.get(Metric.RETRIES));
    }
  }

  @Test
  void failingTheCallFromOutsideCancelsItsTryInFlight() {
    store.faults.thenHang();
    try (RetryingCalls client = client(store.faults)) {
      // As a caller's orTimeout or completeExceptionally does.
      client.getObject(store.all).completeExceptionally(new TimeoutException("the caller's"));
      assertTrue(store.faults.hungGets().get(0).isCancelled());
      store.clock.advance(Duration.ofSeconds(10));
      assertEquals(1, store.faults.sentGets().size(), "and sends no other");
    }
  }
}
