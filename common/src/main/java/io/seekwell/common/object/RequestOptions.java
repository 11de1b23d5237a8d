package io.seekwell.common.object;

import io.seekwell.common.metrics.Metrics;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What every request for an object carries besides its location: the SSE-C key, a user-agent
 * suffix, an audit string (sent as the {@code Referer} header, so it shows in S3 server access
 * logs) and an opaque caller context; inside the resilience layer, which attempt of a call it is.
 * Thread-safe. Every component but {@code attempt} is an immutable value (the caller context and
 * stream metrics are the caller's objects, compared as such); {@code attempt} is the resilience
 * layer's mutable, thread-safe state of one call, which the layer strips before a request leaves
 * it, and which {@link #equals}, {@link #hashCode} and {@link #toString} leave out: two options
 * that differ only in it are equal. Build options from {@link #none()} and the {@code with}
 * methods.
 *
 * @param customerKey the SSE-C key, if the object is encrypted with one
 * @param userAgentSuffix appended to the user agent, e.g. {@code trino/470}
 * @param auditInfo a free-form string that identifies the caller's job or query
 * @param callerContext an object an {@link ObjectClient} may use to send the request on the
 *     caller's behalf (a connector's per-stream request factory); Seekwell passes it along and
 *     never looks into it
 * @param streamMetrics where the resilience layer also counts what it did for this request
 *     (retries, hedges, stalls, resumed bodies), for a connector that reports per stream
 * @param headersTimeout how long the sender waits for this request's response headers before it
 *     gives up on the request; the resilience layer sets it on each request it sends. An {@link
 *     ObjectClient} that cannot cancel a request once sent (a blocking SDK call) must abort the
 *     request after that long, so that a stalled request does not hold a thread and a connection
 *     until the socket times out
 * @param prefetch whether the request fetches bytes ahead of any read; while a bucket's requests
 *     wait for a place under its concurrency limit, these wait behind the ones a read waits for
 * @param attempt which attempt of a call of the resilience layer this request is, set by the layer
 *     for its own decorators ({@link RequestAttempt}); the only component that is not a plain
 *     value: the layer's decorators share it, it is asked whether the request may still be sent,
 *     and it is left out of {@link #equals}, {@link #hashCode} and {@link #toString}
 */
public record RequestOptions(
    Optional<CustomerKey> customerKey,
    Optional<String> userAgentSuffix,
    Optional<String> auditInfo,
    Optional<Object> callerContext,
    Optional<Metrics> streamMetrics,
    Optional<Duration> headersTimeout,
    boolean prefetch,
    Optional<RequestAttempt> attempt) {

  private static final RequestOptions NONE =
      new RequestOptions(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          false,
          Optional.empty());

  /** Creates options; every argument must be non-null (use empty optionals). */
  public RequestOptions {
    Objects.requireNonNull(customerKey, "customerKey");
    Objects.requireNonNull(userAgentSuffix, "userAgentSuffix");
    Objects.requireNonNull(auditInfo, "auditInfo");
    Objects.requireNonNull(callerContext, "callerContext");
    Objects.requireNonNull(streamMetrics, "streamMetrics");
    Objects.requireNonNull(headersTimeout, "headersTimeout");
    Objects.requireNonNull(attempt, "attempt");
    headersTimeout.ifPresent(
        timeout -> {
          if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("headersTimeout must be positive: " + timeout);
          }
        });
  }

  /** No SSE-C key, no user-agent suffix, no audit string. */
  public static RequestOptions none() {
    return NONE;
  }

  /** These options with {@code key} as the SSE-C key. */
  public RequestOptions withCustomerKey(CustomerKey key) {
    return new RequestOptions(
        Optional.of(key),
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch,
        attempt);
  }

  /** These options with {@code suffix} appended to the user agent. */
  public RequestOptions withUserAgentSuffix(String suffix) {
    return new RequestOptions(
        customerKey,
        Optional.of(suffix),
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch,
        attempt);
  }

  /** These options with {@code audit} sent as the request's audit string. */
  public RequestOptions withAuditInfo(String audit) {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        Optional.of(audit),
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch,
        attempt);
  }

  /** These options with {@code context} passed along to the object client. */
  public RequestOptions withCallerContext(Object context) {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        Optional.of(context),
        streamMetrics,
        headersTimeout,
        prefetch,
        attempt);
  }

  /** These options with {@code metrics} counting what the resilience layer does per stream. */
  public RequestOptions withStreamMetrics(Metrics metrics) {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        Optional.of(metrics),
        headersTimeout,
        prefetch,
        attempt);
  }

  /** These options with {@code timeout} as the time the sender waits for response headers. */
  public RequestOptions withHeadersTimeout(Duration timeout) {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        Optional.of(timeout),
        prefetch,
        attempt);
  }

  /** These options for {@code named}, an attempt of one of the resilience layer's calls. */
  public RequestOptions withAttempt(RequestAttempt named) {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch,
        Optional.of(named));
  }

  /** These options without an attempt: as the resilience layer sends a request out of it. */
  public RequestOptions withoutAttempt() {
    if (attempt.isEmpty()) {
      return this;
    }
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch,
        Optional.empty());
  }

  /** These options for a request that fetches bytes ahead of any read. */
  public RequestOptions asPrefetch() {
    return new RequestOptions(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        true,
        attempt);
  }

  /** Equal if every component but {@code attempt} is. */
  @Override
  public boolean equals(Object other) {
    return other instanceof RequestOptions that
        && customerKey.equals(that.customerKey)
        && userAgentSuffix.equals(that.userAgentSuffix)
        && auditInfo.equals(that.auditInfo)
        && callerContext.equals(that.callerContext)
        && streamMetrics.equals(that.streamMetrics)
        && headersTimeout.equals(that.headersTimeout)
        && prefetch == that.prefetch;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        customerKey,
        userAgentSuffix,
        auditInfo,
        callerContext,
        streamMetrics,
        headersTimeout,
        prefetch);
  }

  /** Every component but {@code attempt}, which is not a value. */
  @Override
  public String toString() {
    return "RequestOptions[customerKey="
        + customerKey
        + ", userAgentSuffix="
        + userAgentSuffix
        + ", auditInfo="
        + auditInfo
        + ", callerContext="
        + callerContext
        + ", streamMetrics="
        + streamMetrics
        + ", headersTimeout="
        + headersTimeout
        + ", prefetch="
        + prefetch
        + "]";
  }
}
