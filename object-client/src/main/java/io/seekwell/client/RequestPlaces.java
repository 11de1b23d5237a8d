package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectStoreException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The places a request needs before it is sent: one under its bucket's adaptive limit ({@code
 * concurrency.max}, cut when the store throttles) and then one among the client's connections
 * ({@code max.connections}). Requests over either wait without a thread, those of reads before
 * those of prefetches, until a place is free or their call's deadline passes. Thread-safe: the
 * bucket limits are in a concurrent map (lock-free once a bucket has its limit) and each {@link
 * ConcurrencyLimit} is lock-free.
 */
final class RequestPlaces {

  private static final Logger LOG = LoggerFactory.getLogger(RequestPlaces.class);

  /** The two places a request holds while it is sent. */
  record Held(ConcurrencyLimit.Permit bucket, ConcurrencyLimit.Permit connection) {}

  private final Map<String, ConcurrencyLimit> limits = new ConcurrentHashMap<>();
  private final ConcurrencyLimit connections;
  private final int concurrencyMax;
  private final Scheduler scheduler;
  private final Ticker ticker;
  private final Metrics metrics;

  RequestPlaces(
      ObjectClientConfiguration configuration,
      Scheduler scheduler,
      Ticker ticker,
      Metrics metrics) {
    this.concurrencyMax = configuration.concurrencyMax();
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.metrics = metrics;
    this.connections =
        new ConcurrencyLimit("connections", configuration.maxConnections(), ticker, metrics);
  }

  /**
   * Both places for {@code attempt} of the call {@code what} to {@code bucket}: the bucket's, then
   * a connection; {@code waitsFor} is given each wait as it begins, so that the attempt can give it
   * up. The future fails with the waits' own exceptions (not wrapped): cancelled when a wait is, or
   * an {@link ObjectStoreException} that is not retryable when no place came before {@code
   * deadlineNanos} (a time of this client's ticker) or when that deadline could not be set because
   * the client is closing. A bucket place taken is given back if the connection never comes.
   */
  CompletableFuture<Held> admit(
      String what,
      String attempt,
      String bucket,
      boolean prefetch,
      long deadlineNanos,
      Consumer<CompletableFuture<?>> waitsFor) {
    CompletableFuture<Held> held = new CompletableFuture<>();
    waitFor(limitOf(bucket), what, attempt, prefetch, deadlineNanos, waitsFor)
        .whenComplete(
            (permit, failure) -> {
              if (failure != null) {
                held.completeExceptionally(failure);
                return;
              }
              waitFor(connections, what, attempt, prefetch, deadlineNanos, waitsFor)
                  .whenComplete(
                      (connection, noConnection) -> {
                        if (noConnection == null) {
                          held.complete(new Held(permit, connection));
                        } else {
                          permit.release(ConcurrencyLimit.Outcome.OTHER);
                          held.completeExceptionally(noConnection);
                        }
                      });
            });
    return held;
  }

  private CompletableFuture<ConcurrencyLimit.Permit> waitFor(
      ConcurrencyLimit places,
      String what,
      String attempt,
      boolean prefetch,
      long deadlineNanos,
      Consumer<CompletableFuture<?>> waitsFor) {
    CompletableFuture<ConcurrencyLimit.Permit> place = places.acquire(prefetch);
    waitsFor.accept(place);
    if (!place.isDone()) {
      long queued = ticker.nanos();
      LOG.debug("{}: {} waits for a place ({})", what, attempt, places);
      place.thenRun(
          () ->
              LOG.debug(
                  "{}: {} got a place after waiting {} ms ({})",
                  what,
                  attempt,
                  (ticker.nanos() - queued) / 1_000_000,
                  places));
      long left = Math.max(0, deadlineNanos - ticker.nanos());
      String why = " by its call's deadline, " + left / 1_000_000 + " ms after it began to wait";
      if (!Timers.schedule(
          scheduler,
          () -> place.completeExceptionally(notSent(what, why, places)),
          left,
          what,
          attempt,
          "the deadline of the wait for a place")) {
        // Without a deadline the wait could last for ever: the attempt fails now instead.
        place.completeExceptionally(notSent(what, ": the client is closing", places));
      }
    }
    return place;
  }

  /** The error of an attempt of the call {@code what} not sent, and {@code why}: not retryable. */
  private static ObjectStoreException notSent(String what, String why, ConcurrencyLimit places) {
    return new ObjectStoreException(
        what
            + ": not sent"
            + why
            + ", waiting for a place among the requests in flight ("
            + places
            + ")",
        0,
        null,
        null,
        false,
        null);
  }

  /** The adaptive concurrency limit of {@code bucket}'s requests. */
  private ConcurrencyLimit limitOf(String bucket) {
    // Lock-free once the bucket has its limit: the map's look-up comes before any locking.
    return limits.computeIfAbsent(
        bucket, b -> new ConcurrencyLimit("bucket " + b, concurrencyMax, ticker, metrics));
  }

  /** Says at DEBUG that a throttled answer to {@code attempt} cut {@code bucket}'s limit. */
  void logLimitCut(String what, String attempt, String bucket) {
    LOG.debug(
        "{}: {} throttled, concurrency limit of bucket {} cut to {}",
        what,
        attempt,
        bucket,
        bucketLimits().get(bucket));
  }

  /** The adaptive limit of requests in flight to each bucket requested so far. */
  Map<String, Integer> bucketLimits() {
    Map<String, Integer> now = new TreeMap<>();
    limits.forEach((bucket, limit) -> now.put(bucket, limit.limit()));
    return now;
  }
}
