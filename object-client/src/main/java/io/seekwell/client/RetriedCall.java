package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.RequestOptions;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request of a {@link RetryingCalls} until it has an answer: it sends a try through the client
 * below (a hedged exchange), and when the try fails with an error that is retried, sends another
 * after {@link RetryPolicy}'s backoff, up to {@code retry.max.attempts} and never after {@code
 * retry.deadline}. The call's {@link CallTries} travel down with each try, so that the attempts
 * below are numbered and counted across tries.
 *
 * <p>Design notes (thread-safety): {@code current}, the try in flight, is volatile: it is written
 * by the thread that sends a try (the caller's for the first, the scheduler's for a retry) and read
 * by whichever thread fails or cancels the call. A try sent while the call fails (a caller's
 * cancel, {@code orTimeout} or {@code completeExceptionally}, or a try's error) is always
 * cancelled: the sender writes {@code current} and then reads whether the result failed, while the
 * failure completes the result and then reads {@code current}. The counts are in {@link CallTries},
 * under its lock. A try's answer completes the result on the thread that answered it.
 */
final class RetriedCall<T> {

  private static final Logger LOG = LoggerFactory.getLogger(RetriedCall.class);

  private final String what;
  private final RequestOptions options;
  private final Exchange<T> exchange;
  private final CallContext context;
  private final CallTries tries;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private volatile CompletableFuture<T> current;

  /** The call that sends {@code exchange} with {@code options}. */
  RetriedCall(Exchange<T> exchange, RequestOptions options, CallContext context) {
    this.what = exchange.what();
    this.options = options;
    this.exchange = exchange;
    this.context = context;
    long start = context.ticker().nanos();
    this.tries = new CallTries(start, start + context.policy().deadline().toNanos());
  }

  CompletableFuture<T> start() {
    result.whenComplete(
        (value, failure) -> {
          // Failed by a try, or by the caller (a cancel, a timeout of its own): either way, the
          // try in flight is not waited for.
          CompletableFuture<T> inFlight = current;
          if (failure != null && inFlight != null) {
            inFlight.cancel(true);
          }
        });
    sendTry();
    return result;
  }

  private void sendTry() {
    if (result.isDone()) {
      return;
    }
    tries.nextTry();
    CompletableFuture<T> sent = exchange.sendWith(options.withAttempt(tries));
    current = sent;
    if (result.isCompletedExceptionally()) {
      sent.cancel(true); // failed or cancelled while it was being sent
    }
    sent.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            if (!result.complete(value)) {
              exchange.discard().accept(value);
            }
          } else {
            failed(failure);
          }
        });
  }

  /** A try failed: fail the call, or retry. */
  private void failed(Throwable failure) {
    Throwable cause = Futures.unwrap(failure);
    if (cause instanceof CancellationException) {
      return;
    }
    if (cause instanceof Error error) {
      notRetried(error); // not the store's failure (out of memory, a class that did not load)
      return;
    }
    IOException error = Futures.asIoException(cause);
    if (ErrorKind.isRetryable(error)) {
      retryAfter(error);
    } else {
      notRetried(error);
    }
  }

  /** The try failed with {@code error}, which fails the call. */
  private void notRetried(Throwable error) {
    if (result.isDone()) {
      return;
    }
    LOG.debug(
        "{}: {} failed ({}), not retried: {}",
        what,
        tries.lastFailed(),
        ErrorKind.of(error),
        error);
    result.completeExceptionally(error);
  }

  private void retryAfter(IOException error) {
    if (result.isDone()) {
      return;
    }
    int made = tries.tries();
    long delayNanos = context.policy().delayBefore(made, error).toNanos();
    long elapsed = context.ticker().nanos() - tries.startNanos();
    if (made >= context.policy().maxAttempts()
        || context.policy().isPastDeadline(elapsed, delayNanos)) {
      giveUp(error, tries.tried());
      return;
    }
    LOG.debug(
        "{}: {} failed ({}), retried in {} ms after {}: {}",
        what,
        tries.lastFailed(),
        ErrorKind.of(error),
        delayNanos / 1_000_000,
        tries.tried(),
        error);
    context.counter().count(Metric.RETRIES, options);
    try {
      context.scheduler().schedule(this::sendTry, delayNanos);
    } catch (RejectedExecutionException closed) {
      giveUp(error, tries.tried() + "; the client closed");
    }
  }

  private void giveUp(IOException error, String tried) {
    LOG.debug(
        "{}: gave up after {} ({}, {}): {}",
        what,
        tried,
        tries.lastFailed(),
        ErrorKind.of(error),
        error);
    result.completeExceptionally(RetryPolicy.exhausted(error, tried));
  }
}
