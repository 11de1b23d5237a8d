package io.seekwell.logical;

import io.seekwell.common.concurrent.Futures;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stream thread's wait for a footer it has already read to be parsed: only parsing is left, so
 * the wait is short ({@value #SECONDS} s at most); a footer that failed or took longer is read on
 * without, and logged at DEBUG (a failure was counted in {@link FooterMetrics} where it happened).
 */
public final class BriefWait {

  /** The longest a stream thread waits for a parse. */
  static final long SECONDS = 2;

  private static final Logger LOG = LoggerFactory.getLogger(BriefWait.class);

  private BriefWait() {}

  /**
   * The value {@code parsing} completes with, or {@code otherwise} if it fails or takes longer than
   * {@value #SECONDS} s; {@code what} and {@code objectName} name it in the log.
   *
   * @throws InterruptedIOException if the thread is interrupted while waiting
   */
  public static <T> T await(
      CompletableFuture<T> parsing, T otherwise, String what, String objectName)
      throws InterruptedIOException {
    try {
      return Futures.await(
          parsing, TimeUnit.SECONDS.toNanos(SECONDS), "parsing " + what + " of " + objectName);
    } catch (IOException e) {
      if (e instanceof InterruptedIOException interrupted
          && Thread.currentThread().isInterrupted()) {
        throw interrupted;
      }
      // Failed (counted where it failed) or not parsed in time.
      LOG.debug("Reading on without {} of {}: {}", what, objectName, e.toString());
      return otherwise;
    }
  }
}
