package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

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
 *   <li><b>Ties</b> small requests (HEADs, and GETs of at most {@value
 *       HedgingObjectClient#TIED_MAX_BYTES} bytes) while many connections stall ({@link
 *       ResponseTimes#tying()}): a copy is sent at once with the first, so that such a request
 *       waits for a deadline only when both connections stall. The copy that answers second is
 *       cancelled a hedge deadline after the first answered, or aborted when it answers sooner;
 *       which of the two happened tells whether a connection stalled, so that tying ends when the
 *       stalls do. Ties take no token from the budget: they double small requests only while more
 *       than one in eight of them stalls.
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
 *       aborted, or is its try's answer if none came before and another attempt of the try is still
 *       in flight (once the try has failed, the call has moved on). Attempts over the bound wait
 *       here, demand before prefetch, as over the bucket's limit, and never inside the HTTP client
 *       for a pooled connection, where the wait would count as time to first byte, push the hedge
 *       deadline up, and leave a stalled connection holding the pool for that longer deadline.
 * </ul>
 *
 * <p>A request that cannot succeed fails with the last error, its message naming the object, the
 * range and what was tried. Every decision is logged at DEBUG with the object, the range and the
 * attempt. {@link #close()} stops the scheduler and closes the wrapped client.
 *
 * <p>This class composes the layer, in one place ({@link #RetryingObjectClient(ObjectClient,
 * ObjectClientConfiguration, Metrics, Scheduler, Ticker)}), from small decorators, outermost first:
 * {@link ResumingObjectClient} (resumes bodies) over {@link RetryingCalls} (retries each request
 * after a backoff once its try failed) over {@link HedgingObjectClient} (sends each try as a hedged
 * exchange: a first attempt, hedged copies and a tied copy) over {@link LimitingObjectClient}
 * (sends each attempt once it has its places in {@link RequestPlaces}) over the wrapped client. The
 * retrying and hedging decorators share a {@link CallContext}; a call's {@link CallTries} travel
 * down with each try. docs/internals.md draws the layer.
 */
public final class RetryingObjectClient implements ObjectClient {

  private final Scheduler scheduler;
  private final LimitingObjectClient limits;
  private final ObjectClient layer;

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

  /**
   * As above, with the time and the timer the caller gives (Seekwell's stream factory shares its
   * own; tests move time themselves). Their types are exported to Seekwell's modules only.
   */
  @SuppressWarnings("exports")
  public RetryingObjectClient(
      ObjectClient delegate,
      ObjectClientConfiguration configuration,
      Metrics metrics,
      Scheduler scheduler,
      Ticker ticker) {
    this(delegate, new RetryPolicy(configuration), metrics, scheduler, ticker);
  }

  /** As above, with the backoff of {@code policy} and the system's time and a daemon timer. */
  RetryingObjectClient(ObjectClient delegate, RetryPolicy policy, Metrics metrics) {
    this(delegate, policy, metrics, Scheduler.daemon("seekwell-retry-scheduler-"), Ticker.system());
  }

  /** As above, with the response-time statistics {@code times} the hedges and timeouts follow. */
  RetryingObjectClient(
      ObjectClient delegate,
      RetryPolicy policy,
      Metrics metrics,
      Scheduler scheduler,
      Ticker ticker,
      ResponseTimes times) {
    Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(metrics, "metrics");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(ticker, "ticker");
    this.limits =
        new LimitingObjectClient(delegate, policy.configuration(), scheduler, ticker, metrics);
    CallContext context = CallContext.of(policy, scheduler, ticker, times, metrics);
    ObjectClient calls = new RetryingCalls(new HedgingObjectClient(limits, context), context);
    StallWatchdog watchdog = new StallWatchdog(scheduler, ticker, times, policy.configuration());
    this.layer =
        new ResumingObjectClient(
            new ResumingObjectClient.Resumes(
                calls, policy, ticker, times, watchdog, context.counter()));
  }

  private RetryingObjectClient(
      ObjectClient delegate,
      RetryPolicy policy,
      Metrics metrics,
      Scheduler scheduler,
      Ticker ticker) {
    this(delegate, policy, metrics, scheduler, ticker, new ResponseTimes(policy.configuration()));
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return layer.headObject(request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return layer.getObject(request);
  }

  /**
   * The adaptive limit of requests in flight to each bucket requested so far (see {@code
   * client.concurrency.max}).
   */
  public Map<String, Integer> concurrencyLimits() {
    return limits.concurrencyLimits();
  }

  @Override
  public void close() {
    scheduler.close();
    layer.close();
  }
}
