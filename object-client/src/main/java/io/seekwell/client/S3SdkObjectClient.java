package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * An {@link ObjectClient} over an {@link S3AsyncClient}, built either with the Netty HTTP client
 * ({@code S3AsyncClient.builder()}) or the CRT client ({@code S3AsyncClient.crtBuilder()}).
 * Thread-safe. Makes one HTTP request per call (two for a HEAD of a key that is not found, see
 * below): retries are {@link RetryingObjectClient}'s job.
 *
 * <p>Every GET carries a closed {@code Range} and, when the request has an ETag, {@code If-Match}.
 * Cancelling a returned future cancels the HTTP exchange. Timeouts, hedging and resumption are the
 * job of the {@link RetryingObjectClient} every Seekwell factory reads through. A HEAD answered 404
 * in a bucket not yet seen to exist is followed by a HEAD of the bucket ({@link
 * MissingBucketCheck}), so that a missing bucket is reported as one.
 *
 * <p>The SDK client stays the caller's: {@link #close()} does not close it.
 */
public final class S3SdkObjectClient implements ObjectClient {

  private final S3AsyncClient s3;
  private final MissingBucketCheck buckets;

  /** A client over {@code s3}. */
  public S3SdkObjectClient(S3AsyncClient s3) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.buckets = new MissingBucketCheck(bucket -> s3.headBucket(b -> b.bucket(bucket)));
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return buckets.naming(
        SdkCalls.complete(
            s3.headObject(SdkRequests.head(request)),
            SdkRequests.describe(request),
            SdkRequests::metadata),
        request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    String what = SdkRequests.describe(request);
    return SdkCalls.complete(
        s3.getObject(SdkRequests.get(request), new BlockingBodyTransformer()),
        what,
        stream -> SdkCalls.content(request, stream, what));
  }

  @Override
  public void close() {
    // The SDK client is the caller's; this client holds nothing else.
  }
}
