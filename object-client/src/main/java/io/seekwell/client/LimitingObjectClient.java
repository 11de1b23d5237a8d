package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestAttempt;
import io.seekwell.common.object.RequestOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each request of another {@link ObjectClient} only once it has its places ({@link
 * RequestPlaces}): one under its bucket's adaptive limit, then one among the client's connections.
 * It holds the bucket's until it is answered, and the connection's until that connection is free
 * again: a HEAD's when it is answered, a GET's when its body is closed ({@link
 * ConnectionHeldStream}), a failed request's when it failed. The wait ends at the call's deadline
 * ({@link RequestAttempt#deadlineNanos()}; for a request that names no attempt, {@code
 * retry.deadline} from when it came); the attempt is asked just before it is sent ({@link
 * RequestAttempt#sent()}), and a request whose attempt was given up meanwhile is not sent. The
 * wrapped client is sent the request without its attempt ({@link RequestOptions#withoutAttempt()}).
 *
 * <p>Cancelling a request's future gives up its wait, or the request itself if the wrapped client
 * frees its connection on cancel; a request to a client whose calls block is left to end by itself,
 * holding its places, and its answer is then discarded. Thread-safe: each request's state is its
 * {@link LimitedRequest}'s, the limits' is in {@link RequestPlaces}. {@link #close()} closes the
 * wrapped client.
 */
final class LimitingObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final RequestPlaces places;
  private final Ticker ticker;
  private final Duration retryDeadline;
  private final boolean freesConnectionOnCancel;

  /** Limits the requests of {@code delegate} as {@code configuration} says, counting in metrics. */
  LimitingObjectClient(
      ObjectClient delegate,
      ObjectClientConfiguration configuration,
      Scheduler scheduler,
      Ticker ticker,
      Metrics metrics) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.places = new RequestPlaces(configuration, scheduler, ticker, metrics);
    this.ticker = ticker;
    this.retryDeadline = configuration.retryDeadline();
    this.freesConnectionOnCancel = delegate.freesConnectionOnCancel();
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return new LimitedRequest<>(
            Exchange.head(delegate, request),
            request.location().bucket(),
            request.options(),
            attemptOf(request.options()),
            (metadata, freeConnection) -> {
              freeConnection.run();
              return metadata;
            },
            freesConnectionOnCancel)
        .start(places);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return new LimitedRequest<>(
            Exchange.get(delegate, request),
            request.location().bucket(),
            request.options(),
            attemptOf(request.options()),
            (content, freeConnection) ->
                content.withStream(new ConnectionHeldStream(content.stream(), freeConnection)),
            freesConnectionOnCancel)
        .start(places);
  }

  /** The attempt {@code options} name, or one that is a request of its own. */
  private RequestAttempt attemptOf(RequestOptions options) {
    return options.attempt().orElseGet(() -> new Unnamed(ticker.nanos() + retryDeadline.toNanos()));
  }

  /** A request sent by itself, not as an attempt of a call: it waits until {@code deadline}. */
  private record Unnamed(long deadlineNanos) implements RequestAttempt {
    @Override
    public String name() {
      return "request";
    }

    @Override
    public boolean sent() {
      return true; // nobody gives it up but its caller, by cancelling its future
    }
  }

  /** The adaptive limit of requests in flight to each bucket requested so far. */
  Map<String, Integer> concurrencyLimits() {
    return places.bucketLimits();
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
