package io.seekwell.client;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestAttempt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One attempt of a {@link HedgedExchange}: a request that may wait for its places below ({@link
 * LimitingObjectClient}), which tells it when it is sent ({@link #sent}), and is given up if its
 * headers have not come {@link #timeoutNanos} after that.
 *
 * <p>Design notes (thread-safety): its mutable fields are volatile or atomic, as the exchange's
 * threads (a caller's, the scheduler's, the HTTP client's, the one that gives a place back and
 * sends it) read what the others wrote; the other fields are final. {@code sentNanos} is set once,
 * by a compare-and-set from {@link #UNSENT} when it is sent (so a second call changes nothing);
 * {@code future} is written once, when it is requested, and {@code cancelled} at any step, from any
 * thread. Correctness rests on two volatile write-then-read pairs. {@link #cancel} writes {@code
 * cancelled} and then reads {@code future}, while {@link #requested} writes {@code future} and then
 * reads {@code cancelled}, so a request made while the attempt is cancelled is always given up, by
 * one of them or by both (twice is harmless). {@link #sent} sets {@code sentNanos} and then reads
 * {@code cancelled}, while a cancel writes {@code cancelled} and then reads {@code sentNanos}: so
 * an attempt cancelled before it is sent is never sent (the client below gives its places back
 * instead), and one cancelled while it is being sent is cancelled as a request still waiting, which
 * the limiting client below handles either way.
 */
final class Attempt<T> implements RequestAttempt {

  /** Why an attempt was sent. */
  enum Kind {
    /** The first attempt, or a retry after every attempt in flight failed. */
    TRY,
    /** A copy sent at once with the first attempt: the other half of a tied pair. */
    TIED,
    /** A copy sent at the hedge deadline while the others were still waiting. */
    HEDGE
  }

  /** The {@code sentNanos} of an attempt not sent (a ticker's time may be negative). */
  private static final long UNSENT = Long.MIN_VALUE;

  private final Kind kind;
  private final int number;
  private final String why;
  private final long timeoutNanos;
  private final long deadlineNanos;
  private final boolean freesConnectionOnCancel;
  private final Ticker ticker;
  private final Consumer<Attempt<T>> whenSent;
  private final AtomicLong sentNanos = new AtomicLong(UNSENT);
  private volatile CompletableFuture<T> future;
  private volatile boolean cancelled;

  /**
   * Attempt {@code number} of its call (counting tries, ties and hedges), of {@code kind}, sent
   * {@code why} (such as {@code " as a retry"}; empty for a call's first attempt, whose sending is
   * not logged), given up {@code timeoutNanos} after it is sent, not sent after the call's {@code
   * deadlineNanos}; {@code freesConnectionOnCancel} if cancelling a sent request ends it at once.
   * When it is sent, it reads the time from {@code ticker} and tells {@code whenSent}.
   */
  Attempt(
      Kind kind,
      int number,
      String why,
      long timeoutNanos,
      long deadlineNanos,
      boolean freesConnectionOnCancel,
      Ticker ticker,
      Consumer<Attempt<T>> whenSent) {
    this.kind = kind;
    this.number = number;
    this.why = why;
    this.timeoutNanos = timeoutNanos;
    this.deadlineNanos = deadlineNanos;
    this.freesConnectionOnCancel = freesConnectionOnCancel;
    this.ticker = ticker;
    this.whenSent = whenSent;
  }

  /** Why it was sent, for the log line that says it was ({@code ""} for a call's first). */
  String why() {
    return why;
  }

  @Override
  public String name() {
    return toString();
  }

  @Override
  public long deadlineNanos() {
    return deadlineNanos;
  }

  Kind kind() {
    return kind;
  }

  long timeoutNanos() {
    return timeoutNanos;
  }

  long sentNanos() {
    return sentNanos.get();
  }

  /** Whether it was sent and not cancelled. */
  boolean isSent() {
    return sentNanos.get() != UNSENT && !cancelled;
  }

  /** Whether it was sent and has its answer. */
  boolean isAnswered() {
    CompletableFuture<T> requested = future;
    return isSent() && requested != null && requested.isDone();
  }

  /**
   * It is being sent, unless it was cancelled: its headers timeout and hedge deadline count from
   * the first call; a later one changes nothing.
   */
  @Override
  public boolean sent() {
    if (cancelled) {
      return false;
    }
    if (!sentNanos.compareAndSet(UNSENT, ticker.nanos())) {
      return !cancelled;
    }
    if (cancelled) {
      return false; // cancelled as it was being sent: not sent, whatever the cancel saw
    }
    whenSent.accept(this);
    return true;
  }

  /** Its request is {@code request}; if it was cancelled before, the request is given up now. */
  void requested(CompletableFuture<T> request) {
    future = request;
    if (cancelled) {
      cancel(); // cancelled while it was being requested
    }
  }

  /**
   * Gives up the wait for a place, or the request if it was sent. A request to a client whose calls
   * block is left to end by itself, holding its connection until then; its answer, if one comes, is
   * discarded when it comes ({@link HedgedExchange}).
   */
  void cancel() {
    cancelled = true;
    CompletableFuture<T> requested = future;
    if (requested != null && (sentNanos.get() == UNSENT || freesConnectionOnCancel)) {
      requested.cancel(true);
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
