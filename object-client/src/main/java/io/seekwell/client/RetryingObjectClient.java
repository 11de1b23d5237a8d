package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seekwell's resilience layer: every request of every read path goes through one of these, over
 * whichever {@link ObjectClient} sends the requests. Thread-safe.
 *
 * <ul>
 *   <li><b>Retries</b> requests that fail with a retryable error (HTTP 429, 500, 502, 503, 504,
 *       connection errors, premature ends of body, timeouts) after a full-jitter exponential
 *       backoff, a longer one after throttling, up to {@code retry.max.attempts} and never starting
 *       one after {@code retry.deadline}. No thread waits during a backoff.
 *   <li><b>Hedges</b> a request whose response headers have not come by the adaptive hedge deadline
 *       ({@link ResponseTimes}): a copy is sent while the first keeps going, up to {@code
 *       hedge.max.copies} copies in flight (past that the oldest is abandoned for each new copy),
 *       within the {@link HedgeBudget}. The first answer wins; the others are cancelled (or, on a
 *       client whose calls block, left to end), and their responses, if they come, are aborted
 *       rather than returned to the connection pool.
 *   <li><b>Ties</b> small requests (HEADs, and GETs of at most {@value #TIED_MAX_BYTES} bytes)
 *       while many connections stall ({@link ResponseTimes#tying()}): a copy is sent at once with
 *       the first, so that such a request waits for a deadline only when both connections stall.
 *       The copy that answers second is cancelled a hedge deadline after the first answered, or
 *       aborted when it answers sooner; which of the two happened tells whether a connection
 *       stalled, so that tying ends when the stalls do. Ties take no token from the budget: they
 *       double small requests only while more than one in eight of them stalls.
 *   <li><b>Resumes</b> a GET body that fails part-way or stalls ({@link StallWatchdog}) with a GET
 *       of exactly the bytes not yet delivered, pinned to the first response's ETag with {@code
 *       If-Match}: no byte is delivered twice and bytes of two versions are never mixed. Resumes
 *       have their own bound, {@code resume.max.attempts}, so a client whose SDK retries by itself
 *       (CRT) can set {@code retry.max.attempts=1} and still have cut bodies resumed.
 *   <li><b>Limits</b> the requests in flight to each bucket ({@link ConcurrencyLimit}): the limit
 *       starts at {@code concurrency.max}, is cut when the store throttles and grows back while
 *       requests succeed. Attempts over it wait, without a thread, until a place is free (those of
 *       prefetches behind those a read waits for) or the call's deadline passes; an attempt's
 *       headers timeout and hedge deadline count from when it is sent. An attempt that waits is
 *       neither hedged nor tied.
 *   <li><b>Holds</b> at most {@code max.connections} connections at once: an attempt takes a place
 *       among them once its bucket's limit let it go, and gives it back when its connection is free
 *       again (a HEAD when it is answered, a GET when its body is closed, a failed attempt when it
 *       failed). An abandoned attempt of a client whose calls block ({@link
 *       ObjectClient#freesConnectionOnCancel()}) is not cancelled: it keeps its place until its
 *       call ends by itself, at its headers timeout at the latest, and an answer it brings then is
 *       aborted, or is the call's answer if none came before. Attempts over the bound wait here,
 *       demand before prefetch, as over the bucket's limit, and never inside the HTTP client for a
 *       pooled connection, where the wait would count as time to first byte, push the hedge
 *       deadline up, and leave a stalled connection holding the pool for that longer deadline.
 * </ul>
 *
 * <p>A request that cannot succeed fails with the last error, its message naming the object, the
 * range and what was tried. {@link #close()} stops the scheduler and closes the wrapped client.
 */
public final class RetryingObjectClient implements ObjectClient {

  private static final Logger LOG = LoggerFactory.getLogger(RetryingObjectClient.class);

  /** The largest GET that is tied while connections stall; larger ones are hedged only. */
  static final long TIED_MAX_BYTES = 1 << 20;

  private final ObjectClient delegate;
  private final ObjectClientConfiguration configuration;
  private final RetryPolicy policy;
  private final Metrics metrics;
  private final Scheduler scheduler;
  private final Ticker ticker;
  private final ResponseTimes times;
  private final HedgeBudget budget;
  private final StallWatchdog watchdog;
  private final Map<String, ConcurrencyLimit> limits = new ConcurrentHashMap<>();
  private final ConcurrencyLimit connections;

  /** Retries, hedges and resumes the requests of {@code delegate} as {@code configuration} says. */
  public RetryingObjectClient(
      ObjectClient delegate, ObjectClientConfiguration configuration, Metrics metrics) {
    this(
        delegate,
        new RetryPolicy(configuration),
        metrics,
        Scheduler.daemon("seekwell-retry-scheduler-"),
        Ticker.system());
  }

  /** As above, with the time and the timer the caller gives (tests move time themselves). */
  public RetryingObjectClient(
      ObjectClient delegate,
      ObjectClientConfiguration configuration,
      Metrics metrics,
      Scheduler scheduler,
      Ticker ticker) {
    this(delegate, new RetryPolicy(configuration), metrics, scheduler, ticker);
  }

  RetryingObjectClient(ObjectClient delegate, RetryPolicy policy, Metrics metrics) {
    this(delegate, policy, metrics, Scheduler.daemon("seekwell-retry-scheduler-"), Ticker.system());
  }

  private RetryingObjectClient(
      ObjectClient delegate,
      RetryPolicy policy,
      Metrics metrics,
      Scheduler scheduler,
      Ticker ticker) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.policy = policy;
    this.configuration = policy.configuration();
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.times = new ResponseTimes(configuration);
    this.budget = new HedgeBudget(configuration.hedgeBudget());
    this.watchdog = new StallWatchdog(scheduler, ticker, times, configuration);
    this.connections =
        new ConcurrencyLimit("connections", configuration.maxConnections(), ticker, metrics);
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return new Call<>(
            "HEAD " + request.location(),
            request.location().bucket(),
            request.options(),
            true,
            options -> delegate.headObject(new HeadRequest(request.location(), options)),
            (metadata, freeConnection) -> {
              freeConnection.run();
              return metadata;
            },
            metadata -> {})
        .start();
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    CompletableFuture<ObjectContent> sent = send(request);
    return Futures.cancelThrough(
        sent.thenApply(
            content ->
                new ObjectContent(
                    content.range(),
                    content.etag(),
                    new ResumingInputStream(request, content, this))),
        sent,
        Futures::closeQuietly);
  }

  /** One GET, retried and hedged until its headers arrive; its body is not resumed. */
  CompletableFuture<ObjectContent> send(GetRequest request) {
    return new Call<>(
            "GET " + request.describe(),
            request.location().bucket(),
            request.options(),
            request.range().length() <= TIED_MAX_BYTES,
            options -> delegate.getObject(request.withOptions(options)),
            (content, freeConnection) ->
                new ObjectContent(
                    content.range(),
                    content.etag(),
                    new ConnectionHeldStream(content.stream(), freeConnection)),
            Futures::closeQuietly)
        .start();
  }

  /** The adaptive concurrency limit of {@code bucket}'s requests. */
  private ConcurrencyLimit limitOf(String bucket) {
    // Lock-free once the bucket has its limit: the map's look-up comes before any locking.
    return limits.computeIfAbsent(
        bucket,
        b -> new ConcurrencyLimit("bucket " + b, configuration.concurrencyMax(), ticker, metrics));
  }

  /**
   * The adaptive limit of requests in flight to each bucket requested so far (see {@code
   * client.concurrency.max}).
   */
  public Map<String, Integer> concurrencyLimits() {
    Map<String, Integer> now = new TreeMap<>();
    limits.forEach((bucket, limit) -> now.put(bucket, limit.limit()));
    return now;
  }

  private static ConcurrencyLimit.Outcome outcome(Throwable failure) {
    if (failure == null) {
      return ConcurrencyLimit.Outcome.SUCCESS;
    }
    return ErrorKind.of(failure) == ErrorKind.THROTTLED
        ? ConcurrencyLimit.Outcome.THROTTLED
        : ConcurrencyLimit.Outcome.OTHER;
  }

  /** Counts {@code metric} for the factory and, if the request asks for it, for its stream. */
  void count(Metric metric, RequestOptions options) {
    metrics.increment(metric);
    options.streamMetrics().ifPresent(stream -> stream.increment(metric));
  }

  RetryPolicy policy() {
    return policy;
  }

  Ticker ticker() {
    return ticker;
  }

  ResponseTimes times() {
    return times;
  }

  StallWatchdog watchdog() {
    return watchdog;
  }

  /**
   * One request until it has an answer: its attempts, retries, hedges and tied copy. Its lock
   * guards the attempts in flight, the counts and the tie awaiting its verdict; no I/O happens
   * under it, and the result is completed outside it.
   */
  private final class Call<T> {
    private final String what;
    private final RequestOptions options;
    private final boolean small;
    private final Function<RequestOptions, CompletableFuture<T>> send;
    private final BiFunction<T, Runnable, T> holdConnection;
    private final Consumer<T> discard;
    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final List<Attempt> inFlight = new ArrayList<>();
    private final long startNanos = ticker.nanos();
    private final ConcurrencyLimit limit;
    private int attempts;
    private int hedges;
    private boolean tied;
    private Attempt awaitingVerdict;

    private Call(
        String what,
        String bucket,
        RequestOptions options,
        boolean small,
        Function<RequestOptions, CompletableFuture<T>> send,
        BiFunction<T, Runnable, T> holdConnection,
        Consumer<T> discard) {
      this.what = what;
      this.limit = limitOf(bucket);
      this.options = options;
      this.small = small;
      this.send = send;
      this.holdConnection = holdConnection;
      this.discard = discard;
    }

    /** Why an attempt was sent. */
    private enum Kind {
      /** The first attempt, or a retry after every attempt in flight failed. */
      TRY,
      /** A copy sent at once with the first attempt: the other half of a tied pair. */
      TIED,
      /** A copy sent at the hedge deadline while the others were still waiting. */
      HEDGE
    }

    /**
     * One request: it waits for a place under its bucket's concurrency limit and one among the
     * client's connections, then is sent, and is given up if its headers have not come {@code
     * timeoutNanos} after it was sent.
     */
    private final class Attempt {
      private final Kind kind;
      private final long timeoutNanos;
      private volatile CompletableFuture<ConcurrencyLimit.Permit> place;
      private volatile long sentNanos;
      private volatile CompletableFuture<T> future;
      private volatile boolean cancelled;

      private Attempt(Kind kind, long timeoutNanos) {
        this.kind = kind;
        this.timeoutNanos = timeoutNanos;
      }

      private boolean isSent() {
        return future != null;
      }

      /**
       * Gives up the wait for a place, or the request if it was sent. A request to a client whose
       * calls block is left to end by itself, holding its connection until then; its answer, if one
       * comes, is discarded when it comes ({@link #answered}).
       */
      private void cancel() {
        cancelled = true;
        CompletableFuture<ConcurrencyLimit.Permit> waiting = place;
        if (waiting != null) {
          waiting.cancel(true);
        }
        CompletableFuture<T> sent = future;
        if (sent != null && delegate.freesConnectionOnCancel()) {
          sent.cancel(true);
          sent.thenAccept(discard);
        }
      }
    }

    CompletableFuture<T> start() {
      result.whenComplete(
          (value, failure) -> {
            if (failure != null || !isTied()) {
              cancelAttemptsExcept(null);
            }
          });
      boolean tie = small && configuration.hedgeMaxCopies() > 0 && times.tying();
      synchronized (this) {
        tied = tie;
      }
      Attempt first = sendAttempt(Kind.TRY);
      if (tie && first != null && first.isSent() && !first.future.isDone()) {
        LOG.debug("{}: sent twice at once, connections stalling", what);
        count(Metric.HEDGED_GETS, options);
        sendAttempt(Kind.TIED);
      }
      return result;
    }

    private synchronized boolean isTied() {
      return tied;
    }

    /**
     * Starts an attempt of {@code kind}: it is sent when its bucket's limit has a place for it, and
     * fails the call if none comes before the call's deadline. Null if the call already has its
     * answer.
     */
    private Attempt sendAttempt(Kind kind) {
      Attempt attempt;
      synchronized (this) {
        if (result.isDone()) {
          return null;
        }
        if (kind == Kind.HEDGE) {
          hedges++;
        } else if (kind == Kind.TRY) {
          attempts++;
        }
        attempt = new Attempt(kind, times.headersTimeoutNanos(attempts));
        inFlight.add(attempt);
      }
      budget.earn();
      waitForPlace(attempt, limit)
          .whenComplete(
              (permit, failure) -> {
                if (failure == null) {
                  waitForConnection(attempt, permit);
                } else if (!(failure instanceof CancellationException)) {
                  answered(attempt, null, failure);
                }
              });
      return attempt;
    }

    /** After its bucket's {@code permit}, {@code attempt} waits for a place among connections. */
    private void waitForConnection(Attempt attempt, ConcurrencyLimit.Permit permit) {
      waitForPlace(attempt, connections)
          .whenComplete(
              (connection, failure) -> {
                if (failure == null) {
                  send(attempt, permit, connection);
                  return;
                }
                permit.release(ConcurrencyLimit.Outcome.OTHER);
                if (!(failure instanceof CancellationException)) {
                  answered(attempt, null, failure);
                }
              });
    }

    /**
     * A place for {@code attempt} under {@code places}, which fails if none comes before the call's
     * deadline and is cancelled when the attempt is.
     */
    private CompletableFuture<ConcurrencyLimit.Permit> waitForPlace(
        Attempt attempt, ConcurrencyLimit places) {
      CompletableFuture<ConcurrencyLimit.Permit> place = places.acquire(options.prefetch());
      attempt.place = place;
      if (attempt.cancelled) {
        place.cancel(true); // cancelled before its wait was known: give the wait up now
      }
      if (!place.isDone()) {
        long queued = ticker.nanos();
        place.thenRun(
            () ->
                LOG.debug(
                    "{}: sent after waiting {} ms for a place ({})",
                    what,
                    (ticker.nanos() - queued) / 1_000_000,
                    places));
        long left = policy.deadline().toNanos() - (ticker.nanos() - startNanos);
        if (!schedule(() -> place.completeExceptionally(notSent(places)), Math.max(0, left))) {
          place.cancel(true);
        }
      }
      return place;
    }

    /**
     * Sends {@code attempt}, which holds {@code permit} until it has its answer and {@code
     * connection} until its connection is free again.
     */
    private void send(
        Attempt attempt, ConcurrencyLimit.Permit permit, ConcurrencyLimit.Permit connection) {
      Runnable freeConnection = () -> connection.release(ConcurrencyLimit.Outcome.OTHER);
      if (attempt.cancelled) {
        permit.release(ConcurrencyLimit.Outcome.OTHER);
        freeConnection.run();
        return;
      }
      attempt.sentNanos = ticker.nanos();
      CompletableFuture<T> future;
      try {
        future = send.apply(options.withHeadersTimeout(Duration.ofNanos(attempt.timeoutNanos)));
      } catch (RuntimeException | Error e) {
        future = CompletableFuture.failedFuture(e);
      }
      attempt.future = future;
      if (attempt.cancelled) {
        attempt.cancel(); // cancelled while it was being sent
      }
      future.whenComplete(
          (value, failure) -> {
            permit.release(outcome(failure));
            if (failure != null) {
              freeConnection.run();
              answered(attempt, null, failure);
            } else {
              answered(attempt, holdConnection.apply(value, freeConnection), null);
            }
          });
      schedule(() -> timeOut(attempt), attempt.timeoutNanos);
      if (configuration.hedgeMaxCopies() > 0) {
        schedule(this::hedgeIfStillWaiting, times.hedgeDeadlineNanos());
      }
    }

    private ObjectStoreException notSent(ConcurrencyLimit places) {
      return new ObjectStoreException(
          what
              + ": not sent within the retry deadline of "
              + policy.deadline().toMillis()
              + " ms, waiting for a place among the requests in flight ("
              + places
              + ")",
          0,
          null,
          null,
          false,
          null);
    }

    private boolean schedule(Runnable task, long delayNanos) {
      try {
        scheduler.schedule(task, delayNanos);
        return true;
      } catch (RejectedExecutionException closed) {
        // Closing: the attempts in flight decide the outcome.
        return false;
      }
    }

    /** An attempt without response headers after its timeout is given up. */
    private void timeOut(Attempt attempt) {
      boolean othersInFlight;
      synchronized (this) {
        if (!inFlight.remove(attempt)) {
          return;
        }
        othersInFlight = !inFlight.isEmpty();
      }
      attempt.cancel();
      LOG.debug(
          "{}: {} attempt given up, no headers within {} ms; {} in flight",
          what,
          attempt.kind,
          Duration.ofNanos(attempt.timeoutNanos).toMillis(),
          othersInFlight ? "others" : "none");
      ObjectStoreException noHeaders =
          ObjectStoreException.stalled(
              what
                  + ": no response headers within "
                  + Duration.ofNanos(attempt.timeoutNanos).toMillis()
                  + " ms",
              null);
      metrics.increment(noHeaders.kind().metric());
      failed(noHeaders, othersInFlight);
    }

    /**
     * Sends a copy if every attempt in flight has waited past the hedge deadline. With the most
     * copies already in flight, the oldest attempt (stalled for several deadlines) is abandoned for
     * the new one, so a GET keeps trying fresh connections instead of waiting for the first-byte
     * timeout; the budget bounds how many copies that costs.
     */
    private void hedgeIfStillWaiting() {
      Attempt abandoned = null;
      synchronized (this) {
        if (result.isDone()
            || inFlight.isEmpty()
            || pastDeadline(0)
            || !inFlight.stream().allMatch(Attempt::isSent)) {
          // An attempt waiting for a place is sent with its own hedge deadline.
          return;
        }
        long now = ticker.nanos();
        long deadline = times.hedgeDeadlineNanos();
        long youngest = inFlight.stream().mapToLong(a -> now - a.sentNanos).min().orElse(0);
        if (youngest < deadline) {
          // The deadline moved since this check was planned: look again when it has passed.
          schedule(this::hedgeIfStillWaiting, deadline - youngest);
          return;
        }
        if (!budget.tryTake()) {
          LOG.debug("{}: not hedged, the hedge budget is spent", what);
          // No token now; GETs earn more, so look again a deadline later.
          schedule(this::hedgeIfStillWaiting, deadline);
          return;
        }
        if (inFlight.size() > configuration.hedgeMaxCopies()) {
          abandoned = inFlight.remove(0);
        }
      }
      if (abandoned != null) {
        abandoned.cancel();
      }
      LOG.debug(
          "{}: hedged after {} ms without headers{}",
          what,
          Duration.ofNanos(times.hedgeDeadlineNanos()).toMillis(),
          abandoned == null ? "" : ", the oldest attempt abandoned");
      count(Metric.HEDGED_GETS, options);
      sendAttempt(Kind.HEDGE);
    }

    private void answered(Attempt attempt, T value, Throwable failure) {
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
          times.recordFirstByte(ticker.nanos() - attempt.sentNanos);
        }
        if (result.complete(value)) {
          won(attempt);
        } else {
          discard.accept(value);
          settleTie(attempt, false);
        }
      } else {
        settleTie(attempt, true);
        if (wasInFlight && !(failure instanceof CancellationException)) {
          failed(Futures.asIoException(failure), othersInFlight);
        }
      }
    }

    /**
     * {@code winner} answered first. Every other attempt is cancelled, except that the other half
     * of a tied pair is given a hedge deadline to answer too: if it does not, it stalled.
     */
    private void won(Attempt winner) {
      Attempt partner = null;
      synchronized (this) {
        if (tied && winner.kind != Kind.HEDGE) {
          partner = inFlight.stream().filter(a -> a.kind != Kind.HEDGE).findFirst().orElse(null);
          awaitingVerdict = partner;
        }
      }
      if (tied) {
        cancelAttemptsExcept(partner);
      }
      if (partner != null) {
        Attempt late = partner;
        if (!schedule(() -> settleTie(late, true), times.hedgeDeadlineNanos())) {
          settleTie(late, true);
        }
        return;
      }
      if (LOG.isDebugEnabled() && (winner.kind != Kind.TRY || hedgesSent() > 0 || isTied())) {
        LOG.debug(
            "{}: answered by a {} attempt after {} ms, {}",
            what,
            winner.kind,
            (ticker.nanos() - startNanos) / 1_000_000,
            tried());
      }
      // In a tied call, a hedge was sent only if both halves of the pair waited past the deadline.
      times.recordAnswer(winner.kind == Kind.HEDGE || (isTied() && hedgesSent() > 0));
      if (winner.kind == Kind.HEDGE) {
        count(Metric.HEDGES_WON, options);
        budget.hedgeWon(hedgesSent());
      }
    }

    /**
     * The other half of a tied pair answered after the winner ({@code stalled} false), failed, or
     * was still waiting a hedge deadline later ({@code stalled} true): the call's answer is
     * recorded, and a stalled attempt is cancelled. Only the first of these counts.
     */
    private void settleTie(Attempt partner, boolean stalled) {
      synchronized (this) {
        if (awaitingVerdict != partner) {
          return;
        }
        awaitingVerdict = null;
        inFlight.remove(partner);
      }
      if (stalled) {
        partner.cancel();
      }
      times.recordAnswer(stalled);
      if (stalled && partner.kind == Kind.TRY) {
        count(Metric.HEDGES_WON, options); // the tied copy answered for a stalled first attempt
      }
    }

    /** An attempt failed: fail the call, wait for the other attempts, or retry. */
    private void failed(IOException error, boolean othersInFlight) {
      if (result.isDone()) {
        return;
      }
      if (!ErrorKind.isRetryable(error)) {
        result.completeExceptionally(error);
      } else if (!othersInFlight) {
        retryAfter(error);
      }
    }

    private void retryAfter(IOException error) {
      int made;
      synchronized (this) {
        made = attempts;
      }
      long delayNanos = policy.delayBefore(made, error).toNanos();
      if (made >= policy.maxAttempts() || pastDeadline(delayNanos)) {
        result.completeExceptionally(RetryPolicy.exhausted(error, tried()));
        return;
      }
      LOG.debug("{}: retried in {} ms after {}: {}", what, delayNanos / 1_000_000, tried(), error);
      count(Metric.RETRIES, options);
      try {
        scheduler.schedule(() -> sendAttempt(Kind.TRY), delayNanos);
      } catch (RejectedExecutionException closed) {
        result.completeExceptionally(RetryPolicy.exhausted(error, tried() + "; the client closed"));
      }
    }

    private boolean pastDeadline(long delayNanos) {
      return ticker.nanos() - startNanos + delayNanos > policy.deadline().toNanos();
    }

    private synchronized int hedgesSent() {
      return hedges;
    }

    private synchronized String tried() {
      return attempts
          + (attempts == 1 ? " attempt" : " attempts")
          + (tied ? " (the first sent twice at once)" : "")
          + (hedges == 0 ? "" : " and " + hedges + (hedges == 1 ? " hedge" : " hedges"));
    }

    private void cancelAttemptsExcept(Attempt spared) {
      List<Attempt> losers = new ArrayList<>();
      synchronized (this) {
        for (Attempt attempt : List.copyOf(inFlight)) {
          if (attempt != spared) {
            inFlight.remove(attempt);
            losers.add(attempt);
          }
        }
      }
      for (Attempt loser : losers) {
        loser.cancel();
      }
    }
  }

  @Override
  public void close() {
    scheduler.close();
    delegate.close();
  }
}
