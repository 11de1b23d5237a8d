package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;

/**
 * An {@link ObjectClient} over a blocking {@link S3Client}. Thread-safe. Each call runs on a thread
 * of this client's own pool (at most {@link ObjectClientConfiguration#maxConnections()} threads,
 * which end when idle), so callers get the same asynchronous contract as from {@link
 * S3SdkObjectClient} (a missing bucket included); a response arriving after its call was abandoned
 * is aborted, not leaked.
 *
 * <p>The SDK client stays the caller's; {@link #close()} stops this client's threads only, without
 * waiting for calls still blocked on the network (see {@link BlockingCalls}).
 */
public final class S3SyncSdkObjectClient implements ObjectClient {

  private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

  private final S3Client s3;
  private final BlockingCalls calls;
  private final MissingBucketCheck buckets;

  /** A client over {@code s3}. */
  public S3SyncSdkObjectClient(S3Client s3, ObjectClientConfiguration configuration) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.calls =
        new BlockingCalls(
            "seekwell-sync-client-" + CLIENT_IDS.incrementAndGet() + "-",
            configuration.maxConnections());
    this.buckets =
        new MissingBucketCheck(
            bucket -> calls.run(() -> s3.headBucket(b -> b.bucket(bucket)), response -> {}));
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return buckets.naming(
        SdkCalls.complete(
            calls.run(
                () -> s3.headObject(blocking(SdkRequests.head(request), request.options())),
                response -> {}),
            SdkRequests.describe(request),
            SdkRequests::metadata),
        request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    String what = SdkRequests.describe(request);
    return SdkCalls.complete(
        calls.run(
            () -> s3.getObject(blocking(SdkRequests.get(request), request.options())),
            ResponseInputStream::abort),
        what,
        stream -> SdkCalls.content(request, stream, what));
  }

  private static HeadObjectRequest blocking(HeadObjectRequest head, RequestOptions options) {
    return head.toBuilder()
        .overrideConfiguration(SdkCalls.abortingWhenGivenUp(head.overrideConfiguration(), options))
        .build();
  }

  private static GetObjectRequest blocking(GetObjectRequest get, RequestOptions options) {
    return get.toBuilder()
        .overrideConfiguration(SdkCalls.abortingWhenGivenUp(get.overrideConfiguration(), options))
        .build();
  }

  /** A blocking call cannot be cancelled: the SDK ends it at the request's headers timeout. */
  @Override
  public boolean freesConnectionOnCancel() {
    return false;
  }

  @Override
  public void close() {
    calls.close();
  }
}
