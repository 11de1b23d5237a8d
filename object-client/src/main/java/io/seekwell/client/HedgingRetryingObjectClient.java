package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each request of another {@link ObjectClient} as a {@link Call} of attempts until one
 * answers with headers: it retries, hedges and ties them, and sends each only once it has its
 * places ({@link RequestPlaces}). A GET's body is returned as it comes; resuming it is {@link
 * ResumingObjectClient}'s job. Thread-safe: every call's state is its own {@link Call}'s; what the
 * calls share is in the {@link CallContext}. {@link #close()} closes the wrapped client, not the
 * scheduler (whoever composed the layer closes that).
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
            request.location().bucket(),
            request.options(),
            true,
            new Exchange<>(
                options -> delegate.headObject(new HeadRequest(request.location(), options)),
                (metadata, freeConnection) -> {
                  freeConnection.run();
                  return metadata;
                },
                metadata -> {}),
            context)
        .start();
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return new Call<>(
            "GET " + request.describe(),
            request.location().bucket(),
            request.options(),
            request.range().length() <= TIED_MAX_BYTES,
            new Exchange<>(
                options -> delegate.getObject(request.withOptions(options)),
                (content, freeConnection) ->
                    new ObjectContent(
                        content.range(),
                        content.etag(),
                        new ConnectionHeldStream(content.stream(), freeConnection)),
                Futures::closeQuietly),
            context)
        .start();
  }

  /** The adaptive limit of requests in flight to each bucket requested so far. */
  Map<String, Integer> concurrencyLimits() {
    return context.places().bucketLimits();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
