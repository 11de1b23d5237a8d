package io.seekwell.common.object;

import java.io.IOException;
import java.util.Optional;

/**
 * An error from the object store, or from the network on the way to it, that has no more specific
 * {@link IOException} type. Carries the HTTP status (0 when no response arrived), the store's error
 * code and request id when it sent them, and whether trying again may succeed.
 */
public class ObjectStoreException extends IOException {

  private static final long serialVersionUID = 1L;

  private final int statusCode;
  private final String errorCode;
  private final String requestId;
  private final boolean retryable;
  private final ErrorKind kind;

  /**
   * Creates the exception.
   *
   * @param message names the operation, bucket, key and range
   * @param statusCode the HTTP status, or 0 if no response arrived
   * @param errorCode the store's error code (e.g. {@code SlowDown}), or null
   * @param requestId the store's request id, or null
   * @param retryable whether the same request may succeed if sent again
   * @param cause the underlying error
   */
  public ObjectStoreException(
      String message,
      int statusCode,
      String errorCode,
      String requestId,
      boolean retryable,
      Throwable cause) {
    this(
        message,
        statusCode,
        errorCode,
        requestId,
        retryable,
        ErrorKind.of(statusCode, errorCode, retryable),
        cause);
  }

  private ObjectStoreException(
      String message,
      int statusCode,
      String errorCode,
      String requestId,
      boolean retryable,
      ErrorKind kind,
      Throwable cause) {
    super(message, cause);
    this.statusCode = statusCode;
    this.errorCode = errorCode;
    this.requestId = requestId;
    this.retryable = retryable;
    this.kind = kind;
  }

  /**
   * A connection that Seekwell cut because it stopped delivering (no headers or no body bytes in
   * time): retryable, of kind {@link ErrorKind#STALLED}.
   */
  public static ObjectStoreException stalled(String message, Throwable cause) {
    return new ObjectStoreException(message, 0, null, null, true, ErrorKind.STALLED, cause);
  }

  /**
   * {@code last}, reported with {@code message} once no attempt is left: of {@code last}'s kind
   * (whatever exception it is), with its status, error code and request id if it is an {@code
   * ObjectStoreException}, and not retryable, so that no layer above tries again.
   */
  public static ObjectStoreException givenUp(String message, IOException last) {
    if (last instanceof ObjectStoreException store) {
      return new ObjectStoreException(
          message, store.statusCode, store.errorCode, store.requestId, false, store.kind, last);
    }
    return new ObjectStoreException(message, 0, null, null, false, ErrorKind.of(last), last);
  }

  /** What kind of error this is, as {@link ErrorKind} decides. */
  public ErrorKind kind() {
    return kind;
  }

  /** The HTTP status, or 0 if the request got no response (connection or timeout error). */
  public int statusCode() {
    return statusCode;
  }

  /** The store's error code, such as {@code SlowDown} or {@code InternalError}. */
  public Optional<String> errorCode() {
    return Optional.ofNullable(errorCode);
  }

  /** Whether the store asked for fewer requests (HTTP 503, or the error code {@code SlowDown}). */
  public boolean isThrottling() {
    return kind() == ErrorKind.THROTTLED;
  }

  /** The store's id of the failed request, for support cases. */
  public Optional<String> requestId() {
    return Optional.ofNullable(requestId);
  }

  /** Whether sending the same request again may succeed (throttling, 5xx, network errors). */
  public boolean isRetryable() {
    return retryable;
  }
}
