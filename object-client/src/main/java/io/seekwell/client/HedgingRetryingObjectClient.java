package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each request of another {@link ObjectClient} as a {@link Call} of attempts until one
 * answers with headers: it retries, hedges and ties them. Each attempt names itself and the call's
 * deadline in its options ({@link io.seekwell.common.object.RequestAttempt}), so that the {@link
 * LimitingObjectClient} below can make it wait for its places and say when it is sent. A GET's body
 * is returned as it comes; resuming it is {@link ResumingObjectClient}'s job. Thread-safe: every
 * call's state is its own {@link Call}'s; what the calls share is in the {@link CallContext}.
 * {@link #close()} closes the wrapped client, not the scheduler (whoever composed the layer closes
 * that).
 */
final class HedgingRetryingObjectClient implements ObjectClient {

  /** The largest GET that is tied while connections stall; larger ones are hedged only. */
  static final long TIED_MAX_BYTES = 1 << 20;

  private final ObjectClient delegate;
  private final CallContext context;

  HedgingRetryingObjectClient(ObjectClient delegate, CallContext context) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.context = Objects.requireNonNull(context, "context");
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return new Call<>(
            "HEAD " + request.location(),
            request.options(),
            true,
            new Exchange<>(
                options -> delegate.headObject(new HeadRequest(request.location(), options)),
                metadata -> {}),
            context)
        .start();
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return new Call<>(
            "GET " + request.describe(),
            request.options(),
            request.range().length() <= TIED_MAX_BYTES,
            new Exchange<>(
                options -> delegate.getObject(request.withOptions(options)), Futures::closeQuietly),
            context)
        .start();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
