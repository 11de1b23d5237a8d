package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request until it has an answer: its attempts, retries, hedges and tied copy ({@link
 * HedgingRetryingObjectClient} sends each through one).
 *
 * <p>Design notes (thread-safety): the call's lock ({@code synchronized (this)}) guards {@code
 * inFlight}, the counts of tries and hedges and whether the call is tied (what it guards of the
 * call's {@link TiedPair} is in that class's notes); nothing is logged, scheduled or sent under it,
 * and the result is completed outside it. Its methods run on the caller's thread (the first
 * attempt), the scheduler's (retries, hedges, timeouts), the HTTP client's (answers), and whichever
 * thread sends an attempt that waited for a place ({@link #sent}, from the {@link
 * LimitingObjectClient} below: a reader closing a body, an answer on the HTTP client's thread, or
 * the stall watchdog's sweep on the scheduler's thread).
 */
final class Call<T> {

  private static final Logger LOG = LoggerFactory.getLogger(Call.class);

  private final String what;
  private final RequestOptions options;
  private final boolean small;
  private final Exchange<T> exchange;
  private final CallContext context;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final List<Attempt<T>> inFlight = new ArrayList<>();
  private final long startNanos;
  private int attempts;
  private int hedges;
  private int numbered;
  private boolean tied;
  private final TiedPair<T> pair;

  /** A call {@code what} (method, object, range), tied if {@code small}. */
  Call(
      String what,
      RequestOptions options,
      boolean small,
      Exchange<T> exchange,
      CallContext context) {
    this.what = what;
    this.options = options;
    this.small = small;
    this.exchange = exchange;
    this.context = context;
    this.startNanos = context.ticker().nanos();
    this.pair = new TiedPair<>(what, options, context);
  }

  CompletableFuture<T> start() {
    result.whenComplete(
        (value, failure) -> {
          if (failure != null || !isTied()) {
            cancelAttemptsExcept(null);
          }
        });
    boolean tie = small && context.configuration().hedgeMaxCopies() > 0 && context.times().tying();
    synchronized (this) {
      tied = tie;
    }
    Attempt<T> first = sendAttempt(Attempt.Kind.TRY, "");
    if (tie && first != null && first.isSent() && !first.isAnswered()) {
      context.counter().count(Metric.HEDGED_GETS, options);
      sendAttempt(Attempt.Kind.TIED, " as a tied request with " + first + ", connections stalling");
    }
    return result;
  }

  private synchronized boolean isTied() {
    return tied;
  }

  private synchronized int hedgesSent() {
    return hedges;
  }

  /**
   * Starts an attempt of {@code kind}, sent {@code why} (logged when it is sent): the client below
   * sends it when it has its places, and fails it if none comes before the call's deadline. Null if
   * the call has its answer.
   */
  private Attempt<T> sendAttempt(Attempt.Kind kind, String why) {
    Attempt<T> attempt;
    synchronized (this) {
      if (result.isDone()) {
        return null;
      }
      if (kind == Attempt.Kind.HEDGE) {
        hedges++;
      } else if (kind == Attempt.Kind.TRY) {
        attempts++;
      }
      attempt =
          new Attempt<>(
              kind,
              ++numbered,
              why,
              context.times().headersTimeoutNanos(attempts),
              context.freesConnectionOnCancel());
      inFlight.add(attempt);
    }
    context.budget().earn();
    RequestAttempt sent =
        new RequestAttempt(
            attempt.toString(),
            startNanos + context.policy().deadline().toNanos(),
            () -> sent(attempt));
    CompletableFuture<T> request =
        exchange
            .send()
            .apply(
                options
                    .withHeadersTimeout(Duration.ofNanos(attempt.timeoutNanos()))
                    .withAttempt(sent));
    attempt.requested(request);
    request.whenComplete((value, failure) -> answered(attempt, value, failure));
    return attempt;
  }

  /** {@code attempt} is being sent: its headers timeout and hedge deadline count from now. */
  private void sent(Attempt<T> attempt) {
    attempt.sending(what, context.ticker());
    context.schedule(
        () -> timeOut(attempt), attempt.timeoutNanos(), what, attempt, "the headers timeout");
    if (context.configuration().hedgeMaxCopies() > 0) {
      context.schedule(
          this::hedgeIfStillWaiting,
          context.times().hedgeDeadlineNanos(),
          what,
          attempt,
          "the hedge deadline");
    }
  }

  /** An attempt without response headers after its timeout is given up. */
  private void timeOut(Attempt<T> attempt) {
    boolean othersInFlight;
    synchronized (this) {
      if (!inFlight.remove(attempt)) {
        return;
      }
      othersInFlight = !inFlight.isEmpty();
    }
    attempt.cancel();
    ObjectStoreException noHeaders = attempt.noHeaders(what);
    LOG.debug(
        "{}: {} given up, no headers within {} ms; {} in flight",
        what,
        attempt,
        Duration.ofNanos(attempt.timeoutNanos()).toMillis(),
        othersInFlight ? "others" : "none");
    context.counter().countForClient(noHeaders.kind().metric());
    failed(attempt, noHeaders, othersInFlight);
  }

  /**
   * Sends a copy if every attempt in flight has waited past the hedge deadline. With the most
   * copies already in flight, the oldest attempt (stalled for several deadlines) is abandoned for
   * the new one, so a GET keeps trying fresh connections instead of waiting for the first-byte
   * timeout; the budget bounds how many copies that costs.
   */
  private void hedgeIfStillWaiting() {
    Attempt<T> abandoned = null;
    Attempt<T> newest;
    boolean budgetSpent = false;
    long lookAgainNanos = -1;
    synchronized (this) {
      if (result.isDone()
          || inFlight.isEmpty()
          || pastDeadline(0)
          || !inFlight.stream().allMatch(Attempt::isSent)) {
        // An attempt waiting for a place is sent with its own hedge deadline.
        return;
      }
      long now = context.ticker().nanos();
      long deadline = context.times().hedgeDeadlineNanos();
      newest = inFlight.stream().max(Comparator.comparingLong(Attempt::sentNanos)).orElseThrow();
      long youngest = now - newest.sentNanos();
      if (youngest < deadline) {
        // The deadline moved since this check was planned: look again when it has passed.
        lookAgainNanos = deadline - youngest;
      } else if (!context.budget().tryTake()) {
        // No token now; GETs earn more, so look again a deadline later.
        budgetSpent = true;
        lookAgainNanos = deadline;
      } else if (inFlight.size() > context.configuration().hedgeMaxCopies()) {
        abandoned = inFlight.remove(0);
      }
    }
    if (lookAgainNanos >= 0) {
      if (budgetSpent) {
        LOG.debug("{}: {} not hedged, the hedge budget is spent", what, newest);
      }
      context.schedule(
          this::hedgeIfStillWaiting, lookAgainNanos, what, newest, "the hedge deadline");
      return;
    }
    if (abandoned != null) {
      abandoned.cancel();
    }
    context.counter().count(Metric.HEDGED_GETS, options);
    sendAttempt(
        Attempt.Kind.HEDGE,
        " as a hedge after "
            + Duration.ofNanos(context.times().hedgeDeadlineNanos()).toMillis()
            + " ms without headers"
            + (abandoned == null ? "" : ", " + abandoned + " abandoned"));
  }

  private void answered(Attempt<T> attempt, T value, Throwable failure) {
    boolean wasInFlight;
    boolean othersInFlight;
    synchronized (this) {
      wasInFlight = inFlight.remove(attempt);
      othersInFlight = !inFlight.isEmpty();
    }
    if (failure == null) {
      if (wasInFlight) {
        // An attempt already given up (a blocking client's, which answers late) says nothing of
        // the store's pace now, and would push the hedge deadline up.
        context.times().recordFirstByte(context.ticker().nanos() - attempt.sentNanos());
      }
      if (result.complete(value)) {
        won(attempt);
      } else {
        exchange.discard().accept(value);
        settleTie(attempt, false);
      }
    } else {
      settleTie(attempt, true);
      if (wasInFlight && !(failure instanceof CancellationException)) {
        Throwable cause = Futures.unwrap(failure);
        if (cause instanceof Error error) {
          // Not the store's failure (out of memory, a class that did not load): not retried.
          notRetried(attempt, error);
        } else {
          failed(attempt, Futures.asIoException(cause), othersInFlight);
        }
      }
    }
  }

  /**
   * {@code winner} answered first. Every other attempt is cancelled, except that the other half of
   * a tied pair is given a hedge deadline to answer too: if it does not, it stalled.
   */
  private void won(Attempt<T> winner) {
    Attempt<T> partner = null;
    synchronized (this) {
      if (tied) {
        partner = pair.awaitPartnerOf(winner, inFlight);
      }
    }
    if (isTied()) {
      cancelAttemptsExcept(partner);
    }
    if (LOG.isDebugEnabled()
        && (winner.kind() != Attempt.Kind.TRY || hedgesSent() > 0 || isTied())) {
      LOG.debug(
          "{}: {} answered after {} ms{}, {}",
          what,
          winner,
          (context.ticker().nanos() - startNanos) / 1_000_000,
          winner.kind() == Attempt.Kind.HEDGE ? ": the hedge won" : "",
          tried());
    }
    if (partner != null) {
      Attempt<T> late = partner;
      if (!context.schedule(
          () -> settleTie(late, true),
          context.times().hedgeDeadlineNanos(),
          what,
          late,
          "the verdict on the tied pair")) {
        settleTie(late, true);
      }
      return;
    }
    // In a tied call, a hedge was sent only if both halves of the pair waited past the deadline.
    context
        .times()
        .recordAnswer(winner.kind() == Attempt.Kind.HEDGE || (isTied() && hedgesSent() > 0));
    if (winner.kind() == Attempt.Kind.HEDGE) {
      context.counter().count(Metric.HEDGES_WON, options);
      context.budget().hedgeWon(hedgesSent());
    }
  }

  /** The tied {@code partner} answered, failed or stalled: only the first of these counts. */
  private void settleTie(Attempt<T> partner, boolean stalled) {
    synchronized (this) {
      if (!pair.take(partner)) {
        return;
      }
      inFlight.remove(partner);
    }
    pair.settled(partner, stalled);
  }

  /** An attempt failed: fail the call, wait for the other attempts, or retry. */
  private void failed(Attempt<T> attempt, IOException error, boolean othersInFlight) {
    if (!ErrorKind.isRetryable(error)) {
      notRetried(attempt, error);
    } else if (!othersInFlight && !result.isDone()) {
      retryAfter(attempt, error);
    }
  }

  /** An attempt failed with {@code error}, which fails the call. */
  private void notRetried(Attempt<T> attempt, Throwable error) {
    if (result.isDone()) {
      return;
    }
    LOG.debug("{}: {} failed ({}), not retried: {}", what, attempt, ErrorKind.of(error), error);
    result.completeExceptionally(error);
  }

  private void retryAfter(Attempt<T> attempt, IOException error) {
    int made;
    synchronized (this) {
      made = attempts;
    }
    long delayNanos = context.policy().delayBefore(made, error).toNanos();
    if (made >= context.policy().maxAttempts() || pastDeadline(delayNanos)) {
      giveUp(attempt, error, tried());
      return;
    }
    LOG.debug(
        "{}: {} failed ({}), retried in {} ms after {}: {}",
        what,
        attempt,
        ErrorKind.of(error),
        delayNanos / 1_000_000,
        tried(),
        error);
    context.counter().count(Metric.RETRIES, options);
    try {
      context.scheduler().schedule(() -> sendAttempt(Attempt.Kind.TRY, " as a retry"), delayNanos);
    } catch (RejectedExecutionException closed) {
      giveUp(attempt, error, tried() + "; the client closed");
    }
  }

  private void giveUp(Attempt<T> attempt, IOException error, String tried) {
    LOG.debug(
        "{}: gave up after {} ({}, {}): {}", what, tried, attempt, ErrorKind.of(error), error);
    result.completeExceptionally(RetryPolicy.exhausted(error, tried));
  }

  private boolean pastDeadline(long delayNanos) {
    return context.policy().isPastDeadline(context.ticker().nanos() - startNanos, delayNanos);
  }

  private synchronized String tried() {
    return RetryPolicy.tried(attempts, tied, hedges);
  }

  private void cancelAttemptsExcept(Attempt<T> spared) {
    List<Attempt<T>> losers;
    synchronized (this) {
      losers = new ArrayList<>(inFlight);
      losers.remove(spared);
      inFlight.retainAll(spared == null ? List.of() : List.of(spared));
    }
    for (Attempt<T> loser : losers) {
      loser.cancel();
    }
  }
}
