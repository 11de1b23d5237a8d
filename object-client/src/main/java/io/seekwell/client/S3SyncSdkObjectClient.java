package io.seekwell.client;

import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An {@link ObjectClient} over a blocking {@link S3Client}. Thread-safe. Each call runs on a thread
 * of this client's own pool (at most {@link ObjectClientConfiguration#maxConnections()} threads,
 * which end when idle), so callers get the same asynchronous contract as from {@link
 * S3SdkObjectClient}; a response arriving after its first-byte timeout is aborted, not leaked.
 *
 * <p>The SDK client stays the caller's; {@link #close()} stops this client's threads only.
 */
public final class S3SyncSdkObjectClient implements ObjectClient {

  private static final AtomicInteger CLIENT_IDS = new AtomicInteger();

  private final S3Client s3;
  private final ObjectClientConfiguration configuration;
  private final ThreadPoolExecutor executor;

  /** A client over {@code s3}. */
  public S3SyncSdkObjectClient(S3Client s3, ObjectClientConfiguration configuration) {
    this.s3 = Objects.requireNonNull(s3, "s3");
    this.configuration = Objects.requireNonNull(configuration, "configuration");
    this.executor =
        DaemonPools.bounded(
            "seekwell-sync-client-" + CLIENT_IDS.incrementAndGet() + "-",
            configuration.maxConnections());
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return SdkCalls.complete(
        onPool(() -> s3.headObject(SdkRequests.head(request)), response -> {}),
        configuration.firstByteTimeout(),
        SdkRequests.describe(request),
        SdkRequests::metadata);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    String what = SdkRequests.describe(request);
    return SdkCalls.complete(
        onPool(() -> s3.getObject(SdkRequests.get(request)), ResponseInputStream::abort),
        configuration.firstByteTimeout(),
        what,
        stream -> SdkCalls.content(request, stream, what));
  }

  /**
   * Runs {@code call} on the pool. If the returned future was completed first (timed out or
   * cancelled), the late result is handed to {@code discard} so that no connection is leaked.
   */
  private <T> CompletableFuture<T> onPool(Supplier<T> call, Consumer<T> discard) {
    CompletableFuture<T> future = new CompletableFuture<>();
    try {
      executor.execute(
          () -> {
            if (future.isDone()) {
              return;
            }
            try {
              T result = call.get();
              if (!future.complete(result)) {
                discard.accept(result);
              }
            } catch (RuntimeException e) {
              future.completeExceptionally(e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      future.completeExceptionally(new IllegalStateException("The object client is closed", e));
    }
    return future;
  }

  @Override
  public void close() {
    DaemonPools.shutdown(executor);
  }
}
