package io.seekwell.client;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.ObjectStoreException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of a {@link Call}: it waits for its places ({@link RequestPlaces}), is sent, and is
 * given up if its headers have not come {@link #timeoutNanos} after it was sent.
 *
 * <p>Design notes (thread-safety): its fields are volatile, as the call's threads (a caller's, the
 * scheduler's, the HTTP client's, the one that gives a place back) read what the others wrote.
 * {@code place} is written once per wait (the bucket's, then the connection's), {@code sentNanos}
 * and {@code future} once, when it is sent, and {@code cancelled} at any step, from any thread.
 * Correctness rests on two volatile write-then-read pairs: {@link #cancel} writes {@code cancelled}
 * and then reads {@code place} and {@code future}, while {@link #waitsFor} writes {@code place} and
 * {@link #send} writes {@code future}, and each then reads {@code cancelled}. Of two such threads
 * at least one sees the other's write, so a wait begun or a request sent while the attempt is
 * cancelled is always given up, by one of them or by both (cancelling twice is harmless).
 */
final class Attempt<T> {

  private static final Logger LOG = LoggerFactory.getLogger(Attempt.class);

  /** Why an attempt was sent. */
  enum Kind {
    /** The first attempt, or a retry after every attempt in flight failed. */
    TRY,
    /** A copy sent at once with the first attempt: the other half of a tied pair. */
    TIED,
    /** A copy sent at the hedge deadline while the others were still waiting. */
    HEDGE
  }

  private final Kind kind;
  private final int number;
  private final String why;
  private final long timeoutNanos;
  private final boolean freesConnectionOnCancel;
  private final Consumer<T> discard;
  private volatile CompletableFuture<?> place;
  private volatile long sentNanos;
  private volatile CompletableFuture<T> future;
  private volatile boolean cancelled;

  /**
   * Attempt {@code number} of its call (counting tries, ties and hedges), of {@code kind}, sent
   * {@code why} (such as {@code " as a retry"}; empty for a call's first attempt, whose sending is
   * not logged), given up {@code timeoutNanos} after it is sent; {@code discard} frees an answer
   * that comes too late.
   */
  Attempt(
      Kind kind,
      int number,
      String why,
      long timeoutNanos,
      boolean freesConnectionOnCancel,
      Consumer<T> discard) {
    this.kind = kind;
    this.number = number;
    this.why = why;
    this.timeoutNanos = timeoutNanos;
    this.freesConnectionOnCancel = freesConnectionOnCancel;
    this.discard = discard;
  }

  Kind kind() {
    return kind;
  }

  long timeoutNanos() {
    return timeoutNanos;
  }

  long sentNanos() {
    return sentNanos;
  }

  boolean isSent() {
    return future != null;
  }

  /** Whether it was sent and has its answer. */
  boolean isAnswered() {
    CompletableFuture<T> sent = future;
    return sent != null && sent.isDone();
  }

  /** It waits for {@code waiting}; if it was cancelled before, the wait is given up at once. */
  void waitsFor(CompletableFuture<?> waiting) {
    place = waiting;
    if (cancelled) {
      waiting.cancel(true); // cancelled before its wait was known: give the wait up now
    }
  }

  /**
   * Sends it, an attempt of the call {@code what}, with {@code request}, unless it was cancelled
   * while it waited for {@code held} (then they are given back at once; false). Its headers timeout
   * and hedge deadline count from now. It holds its bucket place until it has its answer, and its
   * connection place until {@code holdConnection} frees it (an answer, when done with) or it fails;
   * {@code answered} gets the answer or the failure (an exception or error thrown by {@code
   * request} too), and {@code limitCut} runs if a throttled answer cut the bucket's limit.
   */
  boolean send(
      String what,
      RequestPlaces.Held held,
      Ticker ticker,
      Supplier<CompletableFuture<T>> request,
      BiFunction<T, Runnable, T> holdConnection,
      BiConsumer<T, Throwable> answered,
      Runnable limitCut) {
    Runnable freeConnection = () -> held.connection().release(ConcurrencyLimit.Outcome.OTHER);
    if (cancelled) {
      held.bucket().release(ConcurrencyLimit.Outcome.OTHER);
      freeConnection.run();
      return false;
    }
    sentNanos = ticker.nanos();
    if (!why.isEmpty()) {
      LOG.debug("{}: {} sent{}", what, this, why);
    }
    CompletableFuture<T> sent;
    try {
      sent = request.get();
    } catch (RuntimeException | Error e) {
      // Answered as a failure, so that the places are given back: a RuntimeException is
      // classified as any failure is, and an Error fails the call at once (Call.answered).
      sent = CompletableFuture.failedFuture(e);
    }
    future = sent;
    if (cancelled) {
      cancel(); // cancelled while it was being sent
    }
    sent.whenComplete(
        (value, failure) -> {
          if (held.bucket().release(ConcurrencyLimit.Outcome.of(failure))) {
            limitCut.run();
          }
          if (failure != null) {
            freeConnection.run();
            answered.accept(null, failure);
          } else {
            answered.accept(holdConnection.apply(value, freeConnection), null);
          }
        });
    return true;
  }

  /**
   * Gives up the wait for a place, or the request if it was sent. A request to a client whose calls
   * block is left to end by itself, holding its connection until then; its answer, if one comes, is
   * discarded when it comes ({@link Call}).
   */
  void cancel() {
    cancelled = true;
    CompletableFuture<?> waiting = place;
    if (waiting != null) {
      waiting.cancel(true);
    }
    CompletableFuture<T> sent = future;
    if (sent != null && freesConnectionOnCancel) {
      sent.cancel(true);
      sent.thenAccept(discard);
    }
  }

  /** The error of this attempt of the call {@code what}, given up for want of response headers. */
  ObjectStoreException noHeaders(String what) {
    return ObjectStoreException.stalled(
        what + ": no response headers within " + timeoutNanos / 1_000_000 + " ms", null);
  }

  @Override
  public String toString() {
    return "attempt " + number + " (" + kind + ")";
  }
}
