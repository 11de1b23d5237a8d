package io.seekwell.client;

import io.seekwell.common.concurrent.DaemonPools;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs blocking SDK calls on a pool of its own, so that object clients over blocking S3 clients
 * give callers the same asynchronous contract as those over async clients: a caller can stop
 * waiting (time out, hedge, close) while the call blocks. Thread-safe.
 *
 * <p>A blocking call cannot be interrupted while it waits for the network: its thread goes on until
 * the call returns, the SDK aborts it at the request's headers timeout ({@link
 * SdkCalls#abortingWhenGivenUp}), or its socket times out. Whatever it returns after its future was
 * completed (timed out, cancelled, closed) is handed to the call's {@code discard}, which aborts
 * it, so no connection goes back to the pool half-read. {@link #close()} does not wait for such
 * threads.
 */
public final class BlockingCalls implements AutoCloseable {

  private final ThreadPoolExecutor executor;

  /** A pool of at most {@code threads} daemon threads named {@code prefix1}, {@code prefix2}… */
  public BlockingCalls(String prefix, int threads) {
    this.executor = DaemonPools.bounded(prefix, threads);
  }

  /**
   * Runs {@code call} on the pool. If the returned future was completed first, the late result is
   * handed to {@code discard}.
   */
  public <T> CompletableFuture<T> run(Supplier<T> call, Consumer<? super T> discard) {
    CompletableFuture<T> future = new CompletableFuture<>();
    try {
      executor.execute(new Call<>(call, discard, future));
    } catch (RejectedExecutionException e) {
      future.completeExceptionally(closed(e));
    }
    return future;
  }

  /**
   * Stops taking calls, fails the calls still queued and interrupts idle threads; does not wait for
   * calls still blocked.
   */
  @Override
  public void close() {
    DaemonPools.stop(executor);
  }

  private static IllegalStateException closed(Exception cause) {
    return new IllegalStateException("The object client is closed", cause);
  }

  /** One call on the pool, or, if the pool closes first, its future failed. */
  private record Call<T>(Supplier<T> call, Consumer<? super T> discard, CompletableFuture<T> future)
      implements DaemonPools.Abandonable {

    @Override
    public void run() {
      if (future.isDone()) {
        return;
      }
      try {
        T result = call.get();
        if (!future.complete(result)) {
          discard.accept(result);
        }
      } catch (RuntimeException | Error e) {
        // An Error too (say, a NoSuchMethodError from an SDK older than Seekwell was built
        // against) goes to the caller: escaping here, it would end the thread, and engines
        // such as Spark end the JVM on any uncaught error.
        future.completeExceptionally(e);
      }
    }

    @Override
    public void abandon() {
      future.completeExceptionally(closed(null));
    }
  }
}
