package io.seekwell.common.object;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.metrics.Metric;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;

/**
 * What kind an error of an {@link ObjectClient} is: the one place that decides it, from the typed
 * exceptions of the {@link ObjectClient} contract. The error metric and the client contracts ask
 * {@link #of(Throwable)}, the retry decision {@link #isRetryable}; the SDK adapters only build the
 * typed exceptions. Immutable and thread-safe.
 */
public enum ErrorKind {
  /** The store asked for fewer requests: HTTP 503, 429 or the error code {@code SlowDown}. */
  THROTTLED(Metric.ERRORS_THROTTLED),
  /** No answer came: a connection error, a timeout or a body that ended early. */
  TRANSIENT(Metric.ERRORS_NETWORK),
  /** Seekwell cut a connection that stopped delivering, or gave up waiting for headers. */
  STALLED(Metric.ERRORS_NETWORK),
  /** The store failed (HTTP 5xx other than throttling). */
  SERVER(Metric.ERRORS_SERVER),
  /** The object or its bucket does not exist (HTTP 404). */
  NOT_FOUND(Metric.ERRORS_NOT_FOUND),
  /** The object no longer has the expected ETag (HTTP 412). */
  CHANGED(Metric.ERRORS_OBJECT_CHANGED),
  /** Access was refused (HTTP 403). */
  DENIED(Metric.ERRORS_ACCESS_DENIED),
  /** The range starts past the end of the object (HTTP 416). */
  RANGE(Metric.ERRORS_RANGE),
  /** The store refused the request as sent (another HTTP 4xx). */
  CLIENT(Metric.ERRORS_OTHER),
  /** Anything else: a cancelled request, an error that is not an {@link IOException}. */
  OTHER(Metric.ERRORS_OTHER);

  private final Metric metric;

  ErrorKind(Metric metric) {
    this.metric = metric;
  }

  /** The error counter this kind is counted in. */
  public Metric metric() {
    return metric;
  }

  /**
   * The kind of {@code failure}, looked through {@link java.util.concurrent.CompletionException}
   * and {@link java.util.concurrent.ExecutionException}.
   */
  public static ErrorKind of(Throwable failure) {
    Throwable cause = Futures.unwrap(failure);
    if (cause instanceof ObjectStoreException store) {
      return store.kind();
    }
    if (cause instanceof FileNotFoundException) {
      return NOT_FOUND;
    }
    if (cause instanceof AccessDeniedException) {
      return DENIED;
    }
    if (cause instanceof ObjectChangedException) {
      return CHANGED;
    }
    if (cause instanceof EOFException) {
      return RANGE;
    }
    return cause instanceof IOException ? TRANSIENT : OTHER;
  }

  /**
   * The kind of an {@link ObjectStoreException} with {@code statusCode} (0 when no response came)
   * and {@code errorCode} (or null), that the store or Seekwell said may or may not be retried.
   */
  static ErrorKind of(int statusCode, String errorCode, boolean retryable) {
    if (statusCode == 503 || statusCode == 429 || "SlowDown".equals(errorCode)) {
      return THROTTLED;
    }
    if (statusCode >= 500) {
      return SERVER;
    }
    if (statusCode == 0) {
      return retryable ? TRANSIENT : OTHER;
    }
    return CLIENT;
  }

  /**
   * Whether the store's answer with {@code statusCode} and {@code errorCode} (or null) may pass on
   * a new attempt: throttling, the server errors 500, 502, 503 and 504, and {@code RequestTimeout}.
   * The adapters of an object store's SDK mark their {@link ObjectStoreException}s with it.
   */
  public static boolean storeMayRetry(int statusCode, String errorCode) {
    return of(statusCode, errorCode, false) == THROTTLED
        || statusCode == 500
        || statusCode == 502
        || statusCode == 504
        || "RequestTimeout".equals(errorCode);
  }

  /**
   * Whether sending the same request again may succeed: the one answer to it, which the retries and
   * the resumed bodies ask. A kind alone does not say: an {@link ObjectStoreException} carries its
   * own answer, set where it is made (the SDK adapters set {@link #storeMayRetry}, so a 400 {@code
   * RequestTimeout} of kind {@link #CLIENT} is retried and a 501 of kind {@link #SERVER} is not; a
   * stall is retryable; an error that used up its attempts, {@link ObjectStoreException#givenUp},
   * is not). Any other error is retryable only if it is {@link #TRANSIENT}: an {@link IOException}
   * of no more specific type.
   */
  public static boolean isRetryable(Throwable failure) {
    Throwable cause = Futures.unwrap(failure);
    if (cause instanceof ObjectStoreException store) {
      return store.isRetryable();
    }
    return of(cause) == TRANSIENT;
  }
}
