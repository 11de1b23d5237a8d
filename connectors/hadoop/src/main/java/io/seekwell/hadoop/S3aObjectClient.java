package io.seekwell.hadoop;

import io.seekwell.client.BlockingCalls;
import io.seekwell.client.SdkCalls;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStreamCallbacks;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * An {@link ObjectClient} that sends each GET through the S3A stream that asked for it (its {@link
 * ObjectInputStreamCallbacks}, passed as the request's caller context): S3A's client, credentials,
 * encryption settings, request headers and audit span. S3A's client blocks until the response
 * headers arrive, so each GET runs on a thread of this client's own pool ({@link BlockingCalls}):
 * Seekwell's resilience layer can then hedge or abandon a GET that stalls, and the SDK aborts a GET
 * the layer has given up on (its headers timeout is set as the API-call timeout), so a stalled GET
 * does not hold one of S3A's pooled connections until the socket times out. Bodies are checked and
 * abortable like those of Seekwell's own SDK clients. HEADs are not supported: S3A opens streams
 * with the length and ETag it already has. Thread-safe; {@link #close()} stops the pool.
 */
final class S3aObjectClient implements ObjectClient {

  private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

  private final BlockingCalls calls;

  /** A client whose pool has at most {@code threads} threads. */
  S3aObjectClient(int threads) {
    this.calls =
        new BlockingCalls("seekwell-s3a-client-" + CLIENT_IDS.incrementAndGet() + "-", threads);
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return CompletableFuture.failedFuture(
        new UnsupportedOperationException(
            "S3A opens Seekwell streams with the object's length; no HEAD is sent for "
                + request.location()));
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    ObjectInputStreamCallbacks callbacks =
        request
            .options()
            .callerContext()
            .filter(ObjectInputStreamCallbacks.class::isInstance)
            .map(ObjectInputStreamCallbacks.class::cast)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "GET of " + request.location() + " without the S3A stream's callbacks"));
    GetObjectRequest.Builder builder =
        callbacks
            .newGetRequestBuilder(request.location().key())
            .range("bytes=" + request.range().start() + "-" + request.range().end());
    request.etag().ifPresent(builder::ifMatch);
    builder.overrideConfiguration(
        SdkCalls.abortingWhenGivenUp(
            Optional.ofNullable(builder.overrideConfiguration()), request.options()));
    GetObjectRequest get = builder.build();
    String what = "GET " + request.describe();
    return SdkCalls.complete(
        calls.run(() -> send(callbacks, get), ResponseInputStream::abort),
        what,
        body -> SdkCalls.content(request, body, what));
  }

  private static ResponseInputStream<GetObjectResponse> send(
      ObjectInputStreamCallbacks callbacks, GetObjectRequest get) {
    try {
      return callbacks.getObject(get);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A blocking call cannot be cancelled: the SDK ends it at the request's headers timeout. */
  @Override
  public boolean freesConnectionOnCancel() {
    return false;
  }

  /** Stops the pool; the S3 client is S3A's. */
  @Override
  public void close() {
    calls.close();
  }
}
