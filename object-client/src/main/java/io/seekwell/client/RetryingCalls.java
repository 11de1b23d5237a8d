package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Retries each request of another {@link ObjectClient} as a {@link RetriedCall}: a try that fails
 * with a retryable error is sent again after a backoff, within {@code retry.max.attempts} and
 * {@code retry.deadline}; one that fails otherwise fails the call. Below it, each try is a hedged
 * exchange ({@link HedgingObjectClient}), which fails only once none of its attempts is in flight,
 * so a call is retried only then. Thread-safe: each call's state is its own {@link RetriedCall}'s;
 * what they share is in the {@link CallContext}. {@link #close()} closes the wrapped client.
 */
final class RetryingCalls implements ObjectClient {

  private final ObjectClient delegate;
  private final CallContext context;

  RetryingCalls(ObjectClient delegate, CallContext context) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return new RetriedCall<>(Exchange.head(delegate, request), request.options(), context).start();
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return new RetriedCall<>(Exchange.get(delegate, request), request.options(), context).start();
  }

  @Override
  public boolean freesConnectionOnCancel() {
    return delegate.freesConnectionOnCancel();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
