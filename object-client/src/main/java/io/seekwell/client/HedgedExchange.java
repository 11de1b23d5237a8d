package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One try of a call until it has an answer: its first attempt, the copies hedged at the hedge
 * deadline and its tied copy ({@link HedgingObjectClient} sends each try through one). The first
 * answer wins; the try fails with the last error once every attempt failed or was given up for want
 * of headers, and at once with an error that is not retried. Whether the call is tried again is the
 * retrier's decision ({@link RetryingCalls}), which shares the call's {@link CallTries}.
 *
 * <p>Design notes (thread-safety): the exchange's lock ({@code synchronized (this)}) guards {@code
 * inFlight}, whether it has failed, whether an attempt waited its whole headers timeout, how many
 * hedges this try sent and whether it has logged a hedge the budget refused (what it guards of the
 * exchange's {@link TiedPair} is in that class's notes); the call's counts are in its {@link
 * CallTries}, under that object's lock, which is taken inside the exchange's. A hedge is counted in
 * both as it is added, under the exchange's lock, so the winner never reads one too few. Nothing is
 * logged, scheduled or sent under the exchange's lock, and the result is completed outside it. Its
 * methods run on the caller's thread or the scheduler's (the first attempt; hedges, timeouts), the
 * HTTP client's (answers), and whichever thread sends an attempt that waited for a place ({@link
 * #sent}, from the {@link LimitingObjectClient} below: a reader closing a body, an answer on the
 * HTTP client's thread, or the stall watchdog's sweep on the scheduler's thread).
 */
final class HedgedExchange<T> {

  private static final Logger LOG = LoggerFactory.getLogger(HedgedExchange.class);

  private final String what;
  private final RequestOptions options;
  private final boolean small;
  private final Exchange<T> exchange;
  private final CallContext context;
  private final CallTries tries;
  private final boolean freesConnectionOnCancel;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final List<Attempt<T>> inFlight = new ArrayList<>();
  private final TiedPair<T> pair;
  private final boolean tied;
  private boolean failed;
  private boolean anAttemptStalled;
  private boolean toldBudgetSpent;
  private int hedgesSent;

  /**
   * A try of the call {@code tries} that sends {@code exchange} with {@code options}, which may be
   * tied if {@code small} ({@link #start}), through a client that ends a sent request when it is
   * cancelled if {@code freesConnectionOnCancel}.
   */
  HedgedExchange(
      Exchange<T> exchange,
      RequestOptions options,
      boolean small,
      CallContext context,
      CallTries tries,
      boolean freesConnectionOnCancel) {
    this.what = exchange.what();
    this.options = options;
    this.small = small;
    this.exchange = exchange;
    this.context = context;
    this.tries = tries;
    this.freesConnectionOnCancel = freesConnectionOnCancel;
    this.pair = new TiedPair<>(what, options, context);
    this.tied =
        (tries.tries() == 1 || tries.lastTryStalled())
            && small
            && context.configuration().hedgeMaxCopies() > 0
            && context.times().tying();
  }

  /**
   * Sends the try's first attempt, and its tied copy if it is small, connections stall, and it is
   * the call's first try or follows one in which an attempt waited its whole headers timeout: a
   * retry sent alone there would wait its own, doubled from the last try's, whenever its connection
   * stalled too, where the budget has no hedge left for it (a lone reader's GET earns its copies
   * none while it waits).
   */
  CompletableFuture<T> start() {
    boolean first = tries.tries() == 1;
    result.whenComplete(
        (value, failure) -> {
          if (failure != null || !tied) {
            cancelAttemptsExcept(null);
          }
        });
    Attempt<T> attempt = sendAttempt(Attempt.Kind.TRY, first ? "" : " as a retry");
    if (tied && attempt != null && attempt.isSent() && !attempt.isAnswered()) {
      tries.tie();
      context.counter().count(Metric.HEDGED_GETS, options);
      sendAttempt(
          Attempt.Kind.TIED, " as a tied request with " + attempt + ", connections stalling");
    }
    return result;
  }

  /**
   * Starts an attempt of {@code kind}, sent {@code why} (logged when it is sent): the client below
   * sends it when it has its places, and fails it if none comes before the call's deadline. Null if
   * the exchange has its answer.
   */
  private Attempt<T> sendAttempt(Attempt.Kind kind, String why) {
    Attempt<T> attempt;
    synchronized (this) {
      if (failed || result.isDone()) {
        return null;
      }
      attempt =
          new Attempt<>(
              kind,
              tries.nextNumber(),
              why,
              context.times().headersTimeoutNanos(tries.tries()),
              tries.deadlineNanos(),
              freesConnectionOnCancel,
              context.ticker(),
              this::sent);
      inFlight.add(attempt);
      if (kind == Attempt.Kind.HEDGE) {
        // Counted before any answer can read the counts.
        tries.hedged();
        hedgesSent++;
      }
    }
    context.budget().earn();
    CompletableFuture<T> request =
        exchange.sendWith(
            options
                .withHeadersTimeout(Duration.ofNanos(attempt.timeoutNanos()))
                .withAttempt(attempt));
    attempt.requested(request);
    request.whenComplete((value, failure) -> answered(attempt, value, failure));
    return attempt;
  }

  /** {@code attempt} is being sent: its headers timeout and hedge deadline count from now. */
  private void sent(Attempt<T> attempt) {
    if (!attempt.why().isEmpty()) {
      LOG.debug("{}: {} sent{}", what, attempt, attempt.why());
    }
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
      anAttemptStalled = true;
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
          || context.policy().isPastDeadline(context.ticker().nanos() - tries.startNanos(), 0)
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
        // No token now; GETs earn more, so look again a deadline later (said once a try).
        budgetSpent = !toldBudgetSpent;
        toldBudgetSpent = true;
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
      if (failure != null && wasInFlight && waitedItsHeadersTimeout(attempt)) {
        // A blocking client's call fails at the same headers timeout, maybe before timeOut runs.
        anAttemptStalled = true;
      }
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
        // An Error is not the store's failure (out of memory, a class that did not load).
        failed(
            attempt, cause instanceof Error ? cause : Futures.asIoException(cause), othersInFlight);
      }
    }
  }

  /**
   * {@code winner} answered first. Every other attempt is cancelled, except that the other half of
   * a tied pair is given a hedge deadline to answer too: if it does not, it stalled.
   */
  private void won(Attempt<T> winner) {
    Attempt<T> partner = null;
    int hedges;
    synchronized (this) {
      if (tied) {
        partner = pair.awaitPartnerOf(winner, inFlight);
      }
      hedges = hedgesSent;
    }
    if (tied) {
      cancelAttemptsExcept(partner);
    }
    if (LOG.isDebugEnabled() && (winner.kind() != Attempt.Kind.TRY || tries.hedges() > 0 || tied)) {
      LOG.debug(
          "{}: {} answered after {} ms{}, {}",
          what,
          winner,
          (context.ticker().nanos() - tries.startNanos()) / 1_000_000,
          winner.kind() == Attempt.Kind.HEDGE ? ": the hedge won" : "",
          tries.tried());
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
    // In a tied try, a hedge was sent only if both halves of the pair waited past the deadline;
    // the hedges of the call's earlier tries say nothing of this one's pace.
    context.times().recordAnswer(winner.kind() == Attempt.Kind.HEDGE || (tied && hedges > 0));
    if (winner.kind() == Attempt.Kind.HEDGE) {
      context.counter().count(Metric.HEDGES_WON, options);
      context.budget().hedgeWon(hedges);
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

  /**
   * {@code attempt} failed with {@code error}: the exchange fails with it if it is not retried (an
   * {@link Error} never is) or if no other attempt was in flight when it failed; otherwise it waits
   * for those.
   */
  private void failed(Attempt<T> attempt, Throwable error, boolean othersInFlight) {
    boolean retryable = !(error instanceof Error) && ErrorKind.isRetryable(error);
    if (retryable && othersInFlight) {
      return;
    }
    boolean stalled;
    synchronized (this) {
      if (failed || result.isDone()) {
        return;
      }
      failed = true;
      stalled = anAttemptStalled;
    }
    tries.failed(attempt, stalled);
    result.completeExceptionally(error);
  }

  /** Whether {@code attempt} was sent and has waited its headers timeout since. */
  private boolean waitedItsHeadersTimeout(Attempt<T> attempt) {
    return attempt.isSent()
        && context.ticker().nanos() - attempt.sentNanos() >= attempt.timeoutNanos();
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
