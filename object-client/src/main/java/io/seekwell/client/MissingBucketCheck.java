package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectMetadata;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Tells a missing bucket from a missing key after a HEAD answered 404: a HEAD's answer has no body,
 * so the store cannot say which, and the SDK calls both {@code NoSuchKey}. On such an answer the
 * bucket is asked about once (a HEAD of the bucket); a bucket seen to exist is not asked about
 * again, so a workload that opens many missing keys pays for one bucket HEAD. Thread-safe.
 */
final class MissingBucketCheck {

  private final Function<String, CompletableFuture<?>> headBucket;
  private final Set<String> existing = ConcurrentHashMap.newKeySet();

  /** A check that asks about a bucket with {@code headBucket}, which fails as the SDK does. */
  MissingBucketCheck(Function<String, CompletableFuture<?>> headBucket) {
    this.headBucket = headBucket;
  }

  /**
   * {@code head}, except that a not-found answer for a bucket that does not exist fails with a
   * {@link FileNotFoundException} that says the bucket is missing. Cancelling the returned future
   * cancels {@code head}.
   */
  CompletableFuture<ObjectMetadata> naming(
      CompletableFuture<ObjectMetadata> head, HeadRequest request) {
    String bucket = request.location().bucket();
    CompletableFuture<ObjectMetadata> checked =
        head.exceptionallyCompose(
            failure -> {
              if (!(Futures.unwrap(failure) instanceof FileNotFoundException)
                  || existing.contains(bucket)) {
                return CompletableFuture.failedFuture(failure);
              }
              return headBucket
                  .apply(bucket)
                  .handle(
                      (answer, bucketFailure) -> {
                        IOException bucketError =
                            bucketFailure == null
                                ? null
                                : S3Errors.translate(bucketFailure, SdkRequests.describe(request));
                        if (bucketError instanceof FileNotFoundException) {
                          throw new CompletionException(bucketError);
                        }
                        existing.add(bucket); // there, or not ours to see: the key is missing
                        throw new CompletionException(Futures.unwrap(failure));
                      });
            });
    return Futures.cancelThrough(checked, head, metadata -> {});
  }
}
