package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.testing.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link RequestPlaces} alone: a bucket place, then a connection, on a clock the test moves. */
class RequestPlacesTest {

  private static final ObjectClientConfiguration ONE_CONNECTION =
      ObjectClientConfiguration.builder()
          .retryDeadline(Duration.ofSeconds(10))
          .concurrencyMax(8)
          .maxConnections(1)
          .build();

  private final Metrics metrics = new Metrics();
  private final ManualClock clock = new ManualClock();
  private final CallContext context =
      CallContext.of(
          new RetryPolicy(ONE_CONNECTION),
          clock,
          clock,
          new ResponseTimes(ONE_CONNECTION),
          metrics,
          true);
  private final RequestPlaces places = context.places();
  private final long deadline = clock.nanos() + Duration.ofSeconds(10).toNanos();

  @AfterEach
  void close() {
    clock.close();
  }

  private static Attempt<Object> attempt(int number) {
    return new Attempt<>(Attempt.Kind.TRY, number, "", 1_000_000_000L, true, value -> {});
  }

  private CompletableFuture<RequestPlaces.Held> admit(Attempt<Object> attempt, boolean prefetch) {
    return places.admit(
        attempt, "GET s3://bucket/key [0-9]", "bucket", prefetch, deadline, context);
  }

  @Test
  void anAttemptWaitsForAConnectionAndAReadGoesBeforeAPrefetch() {
    RequestPlaces.Held first = admit(attempt(1), false).join();
    CompletableFuture<RequestPlaces.Held> prefetch = admit(attempt(2), true);
    CompletableFuture<RequestPlaces.Held> read = admit(attempt(3), false);
    assertFalse(prefetch.isDone());
    assertFalse(read.isDone());

    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(read.isDone(), "the read before the prefetch queued earlier");
    assertFalse(prefetch.isDone());
    read.join().connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(prefetch.isDone());
    assertEquals(Map.of("bucket", 8), places.bucketLimits());
  }

  @Test
  void noPlaceBeforeTheDeadlineFailsTheAttemptForGood() throws Exception {
    RequestPlaces.Held first = admit(attempt(1), false).join();
    CompletableFuture<RequestPlaces.Held> late = admit(attempt(2), false);
    clock.advance(Duration.ofSeconds(10));

    ExecutionException e = assertThrows(ExecutionException.class, late::get);
    ObjectStoreException notSent = assertInstanceOf(ObjectStoreException.class, e.getCause());
    assertTrue(
        notSent.getMessage().contains("not sent within the retry deadline"), notSent::toString);
    assertFalse(ErrorKind.isRetryable(notSent));
    assertEquals(1, metrics.get(Metric.REQUESTS_QUEUED));

    first.bucket().release(ConcurrencyLimit.Outcome.SUCCESS);
    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(admit(attempt(3), false).isDone(), "the failed attempt holds no connection");
  }

  @Test
  void aWaitWhoseDeadlineCannotBeSetAsTheClientClosesFailsAtOnce() {
    RequestPlaces.Held first = admit(attempt(1), false).join();
    clock.close(); // the client is closing: its scheduler takes no deadline
    CompletableFuture<RequestPlaces.Held> late = admit(attempt(2), false);

    assertTrue(late.isCompletedExceptionally(), "failed, not left waiting for ever");
    CompletionException e = assertThrows(CompletionException.class, late::join);
    ObjectStoreException notSent = assertInstanceOf(ObjectStoreException.class, e.getCause());
    assertTrue(
        notSent
            .getMessage()
            .startsWith("GET s3://bucket/key [0-9]: not sent: the client is closing"),
        notSent::toString);
    assertFalse(ErrorKind.isRetryable(notSent));

    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(admit(attempt(3), false).isDone(), "the failed attempt took no connection");
  }

  @Test
  void aCancelledAttemptGivesUpItsWait() {
    RequestPlaces.Held first = admit(attempt(1), false).join();
    Attempt<Object> waiting = attempt(2);
    CompletableFuture<RequestPlaces.Held> wait = admit(waiting, false);
    waiting.cancel();

    assertThrows(CancellationException.class, wait::join);
    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(admit(attempt(3), false).isDone(), "the cancelled attempt took no connection");
  }
}
