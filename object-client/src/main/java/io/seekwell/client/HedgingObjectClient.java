package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each request of another {@link ObjectClient} as a {@link HedgedExchange}: a first attempt,
 * a copy at each hedge deadline while every attempt waits for headers, a tied copy at once for a
 * small request while connections stall; the first answer wins, and it fails only when every
 * attempt has failed or been given up for want of headers. Each attempt names itself and the call's
 * deadline in its options ({@link io.seekwell.common.object.RequestAttempt}), and the client below
 * tells it when it is sent ({@link LimitingObjectClient} does, after any wait for a place): its
 * headers timeout and hedge deadline count from then. A request that is a try of a call retried
 * above ({@link RetryingCalls}) carries that call's {@link CallTries}; any other is a call of one
 * try. A GET's body is returned as it comes; resuming it is {@link ResumingObjectClient}'s job.
 * Thread-safe: each try's state is its own {@link HedgedExchange}'s; what they share is in the
 * {@link CallContext}. {@link #close()} closes the wrapped client.
 */
final class HedgingObjectClient implements ObjectClient {

  /** The largest GET that is tied while connections stall; larger ones are hedged only. */
  static final long TIED_MAX_BYTES = 1 << 20;

  private final ObjectClient delegate;
  private final CallContext context;
  private final boolean freesConnectionOnCancel;

  HedgingObjectClient(ObjectClient delegate, CallContext context) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.context = Objects.requireNonNull(context, "context");
    this.freesConnectionOnCancel = delegate.freesConnectionOnCancel();
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return new HedgedExchange<>(
            Exchange.head(delegate, request),
            request.options(),
            true,
            context,
            CallTries.of(request.options(), context.ticker(), context.policy()),
            freesConnectionOnCancel)
        .start();
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return new HedgedExchange<>(
            Exchange.get(delegate, request),
            request.options(),
            request.range().length() <= TIED_MAX_BYTES,
            context,
            CallTries.of(request.options(), context.ticker(), context.policy()),
            freesConnectionOnCancel)
        .start();
  }

  @Override
  public boolean freesConnectionOnCancel() {
    return freesConnectionOnCancel;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
