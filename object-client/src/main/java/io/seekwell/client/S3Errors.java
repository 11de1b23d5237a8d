package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectStoreException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/**
 * Turns whatever the AWS SDK throws into the typed {@link IOException}s of the {@link
 * io.seekwell.common.object.ObjectClient} contract, once, at the boundary. Messages name the
 * operation, the object and the range. Public for object clients built on other S3 clients (such as
 * a connector's). Thread-safe.
 */
final class S3Errors {

  private S3Errors() {}

  /**
   * The typed exception for {@code failure}.
   *
   * @param failure what the SDK threw or completed a future with
   * @param what the operation and target, such as {@code GET s3://bucket/key [0-99]}
   */
  static IOException translate(Throwable failure, String what) {
    Throwable cause = unwrap(failure);
    if (cause instanceof SdkServiceException serviceError) {
      return fromService(serviceError, what);
    }
    if (cause instanceof TimeoutException) {
      return new ObjectStoreException(
          what + ": no response in time (" + cause.getMessage() + ")", 0, null, null, true, cause);
    }
    if (cause instanceof SdkClientException || cause instanceof IOException) {
      return new ObjectStoreException(what + ": " + describe(cause), 0, null, null, true, cause);
    }
    if (cause instanceof CancellationException) {
      return new ObjectStoreException(what + ": cancelled", 0, null, null, false, cause);
    }
    return new ObjectStoreException(what + ": " + describe(cause), 0, null, null, false, cause);
  }

  private static IOException fromService(SdkServiceException error, String what) {
    int status = error.statusCode();
    String code = errorCode(error);
    String requestId = error.requestId();
    String details =
        " (HTTP " + status + (code == null ? "" : " " + code) + ", request id " + requestId + ")";
    IOException translated;
    switch (status) {
      case 404 -> {
        boolean bucket = "NoSuchBucket".equals(code) || error instanceof NoSuchBucketException;
        translated =
            new FileNotFoundException(
                what + (bucket ? ": bucket not found" : ": object not found") + details);
      }
      case 403 -> {
        translated = new AccessDeniedException(what, null, "access denied" + details);
      }
      case 412 -> {
        return new ObjectChangedException(
            what + ": object changed since it was opened (ETag no longer matches)" + details,
            error);
      }
      case 416 -> {
        translated = new EOFException(what + ": range starts past the end of the object" + details);
      }
      default -> {
        return new ObjectStoreException(
            what + ": " + firstLine(error.getMessage()) + details,
            status,
            code,
            requestId,
            ErrorKind.storeMayRetry(status, code),
            error);
      }
    }
    translated.initCause(error);
    return translated;
  }

  private static String errorCode(SdkServiceException error) {
    if (error instanceof AwsServiceException awsError && awsError.awsErrorDetails() != null) {
      return awsError.awsErrorDetails().errorCode();
    }
    return null;
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = Futures.unwrap(failure);
    return cause instanceof UncheckedIOException unchecked ? unchecked.getCause() : cause;
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null ? cause.getClass().getSimpleName() : firstLine(message);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
