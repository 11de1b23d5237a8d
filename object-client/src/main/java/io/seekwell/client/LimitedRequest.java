package io.seekwell.client;

import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request of a {@link LimitingObjectClient}: it waits for its places ({@link RequestPlaces}),
 * is sent, holds its bucket place until it is answered and its connection place until its
 * connection is free again.
 *
 * <p>Design notes (thread-safety): {@code waiting} and {@code sent} are volatile, as the threads
 * that wait, send and cancel (a caller's, the scheduler's, the HTTP client's, whichever gives a
 * place back) read what the others wrote; {@code waiting} is written once per wait (the bucket's,
 * then the connection's), {@code sent} once. Whether the request was given up is the state of
 * {@code answer}, cancelled from any thread. Correctness rests on two write-then-read pairs: a
 * cancel completes {@code answer} and then reads {@code waiting} and {@code sent}, while a wait
 * writes {@code waiting} and a send writes {@code sent}, and each then reads {@code answer}. Of two
 * such threads at least one sees the other's write, so a wait begun or a request sent while the
 * request is given up is always given up, by one of them or by both (twice is harmless). Just
 * before it sends, the sending thread asks the attempt whether it may ({@link
 * RequestAttempt#sent}); one given up meanwhile (its own state, see {@link Attempt}) is not sent.
 */
final class LimitedRequest<T> {

  private static final Logger LOG = LoggerFactory.getLogger(LimitedRequest.class);

  private final String what;
  private final String bucket;
  private final RequestOptions options;
  private final RequestAttempt attempt;
  private final Exchange<T> exchange;
  private final BiFunction<T, Runnable, T> holdConnection;
  private final boolean freesConnectionOnCancel;
  private final CompletableFuture<T> answer = new CompletableFuture<>();
  private volatile CompletableFuture<?> waiting;
  private volatile CompletableFuture<T> sent;

  /**
   * The request {@code exchange} to {@code bucket} with {@code options}, the attempt {@code
   * attempt} of its call; {@code holdConnection} makes an answer free its connection place when
   * done with; {@code freesConnectionOnCancel} if cancelling a sent request ends it at once.
   */
  LimitedRequest(
      Exchange<T> exchange,
      String bucket,
      RequestOptions options,
      RequestAttempt attempt,
      BiFunction<T, Runnable, T> holdConnection,
      boolean freesConnectionOnCancel) {
    this.what = exchange.what();
    this.bucket = bucket;
    this.options = options;
    this.attempt = attempt;
    this.exchange = exchange;
    this.holdConnection = holdConnection;
    this.freesConnectionOnCancel = freesConnectionOnCancel;
  }

  /** Waits for the places in {@code places}, then sends; the answer, or why there is none. */
  CompletableFuture<T> start(RequestPlaces places) {
    answer.whenComplete(
        (value, failure) -> {
          if (failure instanceof CancellationException) {
            givenUp();
          }
        });
    places
        .admit(
            what,
            attempt.name(),
            bucket,
            options.prefetch(),
            attempt.deadlineNanos(),
            this::waitsFor)
        .whenComplete(
            (held, failure) -> {
              if (failure == null) {
                send(held, places);
              } else {
                answer.completeExceptionally(failure);
              }
            });
    return answer;
  }

  /**
   * Whether its attempt may still be sent; if asking throws, the request is answered with that
   * failure (the layers above classify it) and is not sent.
   */
  private boolean attemptSent() {
    boolean send;
    try {
      send = attempt.sent();
    } catch (RuntimeException | Error e) {
      answer.completeExceptionally(e);
      return false;
    }
    if (!send) {
      LOG.debug("{}: {} given up before it was sent, not sent", what, attempt.name());
    }
    return send;
  }

  private void waitsFor(CompletableFuture<?> place) {
    waiting = place;
    if (answer.isCancelled()) {
      place.cancel(true); // given up before its wait was known: give the wait up now
    }
  }

  /**
   * The request was given up: its wait ends, and a sent request is cancelled if that frees its
   * connection. A request to a client whose calls block is left to end by itself, holding its
   * places until then; its answer is discarded when it comes.
   */
  private void givenUp() {
    CompletableFuture<?> place = waiting;
    if (place != null) {
      place.cancel(true);
    }
    CompletableFuture<T> request = sent;
    if (request != null && freesConnectionOnCancel) {
      request.cancel(true);
    }
  }

  /**
   * Sends it with {@code held}, without its attempt, unless it was given up while it waited or its
   * attempt was (then they are given back at once, and a given-up attempt's answer is cancelled). A
   * throttled answer that cuts the bucket's limit is logged.
   */
  private void send(RequestPlaces.Held held, RequestPlaces places) {
    Runnable freeConnection = () -> held.connection().release(ConcurrencyLimit.Outcome.OTHER);
    if (answer.isDone() || !attemptSent()) {
      held.bucket().release(ConcurrencyLimit.Outcome.OTHER);
      freeConnection.run();
      answer.cancel(false);
      return;
    }
    CompletableFuture<T> request = exchange.sendWith(options.withoutAttempt());
    sent = request;
    if (answer.isCancelled()) {
      givenUp(); // given up while it was being sent
    }
    request.whenComplete(
        (value, failure) -> {
          if (held.bucket().release(ConcurrencyLimit.Outcome.of(failure))) {
            places.logLimitCut(what, attempt.name(), bucket);
          }
          if (failure != null) {
            freeConnection.run();
            answer.completeExceptionally(failure);
            return;
          }
          T holding = holdConnection.apply(value, freeConnection);
          if (!answer.complete(holding)) {
            exchange.discard().accept(holding);
          }
        });
  }
}
