package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * An {@link ObjectClient} over an {@link S3AsyncClient}, built either with the Netty HTTP client
 * ({@code S3AsyncClient.builder()}) or the CRT client ({@code S3AsyncClient.crtBuilder()}).
 * Thread-safe. Makes exactly one HTTP request per call: retries are {@link RetryingObjectClient}'s
 * job.
 *
 * <p>Every GET carries a closed {@code Range} and, when the request has an ETag, {@code If-Match}.
 * A response that does not arrive within {@link ObjectClientConfiguration#firstByteTimeout()} is
 * cancelled and fails with a retryable {@link io.seekwell.common.object.ObjectStoreException}.
 *
 * <p>The SDK client stays the caller's: {@link #close()} does not close it.
 */
public final class S3SdkObjectClient implements ObjectClient {

  private final S3AsyncClient s3;
  private final ObjectClientConfiguration configuration;

  /** A client over {@code s3}. */
  public S3SdkObjectClient(S3AsyncClient s3, ObjectClientConfiguration configuration) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.configuration = Objects.requireNonNull(configuration, "configuration");
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return SdkCalls.complete(
        s3.headObject(SdkRequests.head(request)),
        configuration.firstByteTimeout(),
        SdkRequests.describe(request),
        SdkRequests::metadata);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    String what = SdkRequests.describe(request);
    return SdkCalls.complete(
        s3.getObject(SdkRequests.get(request), AsyncResponseTransformer.toBlockingInputStream()),
        configuration.firstByteTimeout(),
        what,
        stream -> SdkCalls.content(request, stream, what));
  }

  @Override
  public void close() {
    // The SDK client is the caller's; this client holds nothing else.
  }
}
