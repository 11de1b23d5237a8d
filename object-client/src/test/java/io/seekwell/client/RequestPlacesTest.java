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
import java.util.ArrayList;
import java.util.List;
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
  private final RequestPlaces places = new RequestPlaces(ONE_CONNECTION, clock, clock, metrics);
  private final long deadline = clock.nanos() + Duration.ofSeconds(10).toNanos();

  @AfterEach
  void close() {
    clock.close();
  }

  /** The waits of the last attempt admitted, in the order they began. */
  private final List<CompletableFuture<?>> waits = new ArrayList<>();

  private CompletableFuture<RequestPlaces.Held> admit(int attempt, boolean prefetch) {
    waits.clear();
    return places.admit(
        "GET s3://bucket/key [0-9]",
        "attempt " + attempt + " (TRY)",
        "bucket",
        prefetch,
        deadline,
        waits::add);
  }

  @Test
  void anAttemptWaitsForAConnectionAndAReadGoesBeforeAPrefetch() {
    RequestPlaces.Held first = admit(1, false).join();
    CompletableFuture<RequestPlaces.Held> prefetch = admit(2, true);
    CompletableFuture<RequestPlaces.Held> read = admit(3, false);
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
    RequestPlaces.Held first = admit(1, false).join();
    CompletableFuture<RequestPlaces.Held> late = admit(2, false);
    clock.advance(Duration.ofSeconds(10));

    ExecutionException e = assertThrows(ExecutionException.class, late::get);
    ObjectStoreException notSent = assertInstanceOf(ObjectStoreException.class, e.getCause());
    assertTrue(
        notSent.getMessage().contains("not sent by its call's deadline, 10000 ms after it began"),
        "the attempt's own deadline, not retry.deadline: " + notSent);
    assertFalse(ErrorKind.isRetryable(notSent));
    assertEquals(1, metrics.get(Metric.REQUESTS_QUEUED));

    first.bucket().release(ConcurrencyLimit.Outcome.SUCCESS);
    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(admit(3, false).isDone(), "the failed attempt holds no connection");
  }

  @Test
  void aWaitWhoseDeadlineCannotBeSetAsTheClientClosesFailsAtOnce() {
    RequestPlaces.Held first = admit(1, false).join();
    clock.close(); // the client is closing: its scheduler takes no deadline
    CompletableFuture<RequestPlaces.Held> late = admit(2, false);

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
    assertTrue(admit(3, false).isDone(), "the failed attempt took no connection");
  }

  @Test
  void aCancelledAttemptGivesUpItsWait() {
    RequestPlaces.Held first = admit(1, false).join();
    CompletableFuture<RequestPlaces.Held> wait = admit(2, false);
    waits.get(waits.size() - 1).cancel(true);

    assertThrows(CancellationException.class, wait::join);
    first.connection().release(ConcurrencyLimit.Outcome.OTHER);
    assertTrue(admit(3, false).isDone(), "the cancelled attempt took no connection");
  }
}
