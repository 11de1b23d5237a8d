package io.seekwell.common.concurrent;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way Seekwell waits for a future and turns its failure into an {@link IOException}: the
 * cause behind {@link CompletionException} and {@link ExecutionException}, a timeout as an {@link
 * InterruptedIOException} naming what was waited for, an interrupt as one too (with the thread's
 * interrupt flag set again). Stateless.
 */
public final class Futures {
  private static final Logger LOG = LoggerFactory.getLogger(Futures.class);

  private Futures() {}

  /**
   * Waits up to {@code timeoutNanos} for {@code future}. If the wait ends without a value, a value
   * that arrives later is closed, so that no connection or buffer is leaked.
   *
   * @param what the operation and target, for messages, such as {@code GET s3://b/k [0-99]}
   */
  public static <T extends Closeable> T awaitClosingLate(
      CompletableFuture<T> future, long timeoutNanos, String what) throws IOException {
    try {
      return await(future, timeoutNanos, what);
    } catch (IOException e) {
      future.thenAccept(Futures::closeQuietly);
      throw e;
    }
  }

  /**
   * Waits up to {@code timeoutNanos} for {@code future}.
   *
   * @param what the operation and target, for messages
   */
  public static <T> T await(CompletableFuture<T> future, long timeoutNanos, String what)
      throws IOException {
    try {
      return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException | CancellationException e) {
      throw asIoException(e);
    } catch (TimeoutException e) {
      InterruptedIOException timedOut =
          new InterruptedIOException(
              what + ": no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms");
      timedOut.initCause(e);
      throw timedOut;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException(what + ": interrupted");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  /**
   * Makes cancelling {@code derived} cancel {@code source} too, handing a value {@code source}
   * produced anyway to {@code discard} (so that a response nobody reads releases its connection).
   *
   * @return {@code derived}
   */
  public static <T, R> CompletableFuture<R> cancelThrough(
      CompletableFuture<R> derived, CompletableFuture<T> source, Consumer<? super T> discard) {
    derived.whenComplete(
        (value, failure) -> {
          if (derived.isCancelled()) {
            source.cancel(true);
            source.thenAccept(discard);
          }
        });
    return derived;
  }

  /**
   * The failure behind {@code failure}, unwrapped from the futures' wrappers, as an IOException.
   */
  public static IOException asIoException(Throwable failure) {
    Throwable cause = unwrap(failure);
    return cause instanceof IOException io ? io : new IOException(describe(cause), cause);
  }

  /** {@code failure} without its {@link CompletionException} and {@link ExecutionException}. */
  public static Throwable unwrap(Throwable failure) {
    Throwable current = failure;
    while ((current instanceof CompletionException || current instanceof ExecutionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  private static String describe(Throwable cause) {
    return cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
  }

  /** Closes {@code value}, ignoring failures: used on values nobody is going to read. */
  public static void closeQuietly(Closeable value) {
    try {
      value.close();
    } catch (IOException | RuntimeException e) {
      // Nobody reads this value; closing only releases what it holds.
      LOG.debug("Closing an unread {} failed: {}", value.getClass().getSimpleName(), e.toString());
    }
  }
}
