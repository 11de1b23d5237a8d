package io.seekwell.client;

import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Retries the requests of another {@link ObjectClient} that fail with a retryable error (HTTP 500,
 * 502, 503, 504, throttling, connection errors and timeouts), waiting with exponential backoff and
 * full jitter, up to a number of attempts and a deadline. Thread-safe. No thread waits during a
 * backoff of a HEAD or of a GET that has not started: the next attempt is scheduled.
 *
 * <p>A GET body that fails part-way is resumed by a new GET of the bytes not yet delivered, with
 * {@code If-Match} set to the first response's ETag, so no byte is delivered twice and bytes of two
 * object versions are never mixed. When no attempt is left, the last error is reported, with the
 * number of attempts in its message.
 *
 * <p>{@link #close()} stops the scheduler and closes the wrapped client.
 */
public final class RetryingObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final RetryPolicy policy;
  private final Metrics metrics;
  private final ScheduledExecutorService scheduler;

  /** Retries the requests of {@code delegate} as {@code configuration} says. */
  public RetryingObjectClient(
      ObjectClient delegate, ObjectClientConfiguration configuration, Metrics metrics) {
    this(delegate, new RetryPolicy(configuration), metrics);
  }

  RetryingObjectClient(ObjectClient delegate, RetryPolicy policy, Metrics metrics) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.policy = policy;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            DaemonPools.threadFactory("seekwell-retry-scheduler-"));
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return withRetries(() -> delegate.headObject(request));
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return withRetries(() -> delegate.getObject(request))
        .thenApply(
            content ->
                new ObjectContent(
                    content.range(),
                    content.etag(),
                    new ResumingInputStream(request, content, delegate, policy, metrics)));
  }

  private <T> CompletableFuture<T> withRetries(Supplier<CompletableFuture<T>> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    attempt(call, 1, System.nanoTime(), result);
    return result;
  }

  private <T> void attempt(
      Supplier<CompletableFuture<T>> call,
      int attempt,
      long startNanos,
      CompletableFuture<T> result) {
    call.get()
        .whenComplete(
            (value, failure) -> {
              if (failure == null) {
                result.complete(value);
                return;
              }
              IOException error = RetryPolicy.asIoException(failure);
              if (!RetryPolicy.isRetryable(error)) {
                result.completeExceptionally(error);
                return;
              }
              long delayNanos = policy.delayBefore(attempt, error).toNanos();
              long elapsed = System.nanoTime() - startNanos;
              if (attempt >= policy.maxAttempts()
                  || elapsed + delayNanos > policy.deadline().toNanos()) {
                result.completeExceptionally(RetryPolicy.exhausted(error, attempt));
                return;
              }
              metrics.increment(Metric.RETRIES);
              try {
                scheduler.schedule(
                    () -> attempt(call, attempt + 1, startNanos, result),
                    delayNanos,
                    TimeUnit.NANOSECONDS);
              } catch (RejectedExecutionException closed) {
                result.completeExceptionally(error);
              }
            });
  }

  @Override
  public void close() {
    DaemonPools.shutdown(scheduler);
    delegate.close();
  }
}
