package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectStoreException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3ErrorsTest {

  private static final String WHAT = "GET s3://bucket/key [0-99]";

  private static S3Exception s3Error(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .requestId("REQ123")
            .message("store says " + code)
            .awsErrorDetails(
                AwsErrorDetails.builder()
                    .errorCode(code)
                    .errorMessage("store says " + code)
                    .build())
            .build();
  }

  @Test
  void notFound() {
    IOException e = S3Errors.translate(new CompletionException(s3Error(404, "NoSuchKey")), WHAT);
    assertInstanceOf(FileNotFoundException.class, e);
    assertEquals(
        WHAT + ": object not found (HTTP 404 NoSuchKey, request id REQ123)", e.getMessage());
  }

  @Test
  void accessDenied() {
    IOException e = S3Errors.translate(s3Error(403, "AccessDenied"), WHAT);
    AccessDeniedException denied = assertInstanceOf(AccessDeniedException.class, e);
    assertEquals(WHAT, denied.getFile());
    assertTrue(e.getMessage().contains("access denied (HTTP 403 AccessDenied"), e.getMessage());
  }

  @Test
  void preconditionFailedIsObjectChanged() {
    S3Exception cause = s3Error(412, "PreconditionFailed");
    IOException e = S3Errors.translate(cause, WHAT);
    assertInstanceOf(ObjectChangedException.class, e);
    assertSame(cause, e.getCause());
  }

  @Test
  void invalidRangeIsEof() {
    IOException e = S3Errors.translate(s3Error(416, "InvalidRange"), WHAT);
    assertInstanceOf(EOFException.class, e);
    assertTrue(e.getMessage().contains("past the end"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({
    "500, InternalError, true",
    "502, BadGateway, true",
    "503, SlowDown, true",
    "429, TooManyRequests, true",
    "504, GatewayTimeout, true",
    "400, RequestTimeout, true",
    "400, InvalidArgument, false",
    "501, NotImplemented, false"
  })
  void otherStatusesKeepCodeAndRequestId(int status, String code, boolean retryable) {
    IOException e = S3Errors.translate(s3Error(status, code), WHAT);
    ObjectStoreException store = assertInstanceOf(ObjectStoreException.class, e);
    assertEquals(status, store.statusCode());
    assertEquals(code, store.errorCode().orElseThrow());
    assertEquals("REQ123", store.requestId().orElseThrow());
    assertEquals(retryable, store.isRetryable());
    assertEquals(status == 503 || status == 429, store.isThrottling(), "throttling");
    assertTrue(e.getMessage().startsWith(WHAT + ": store says " + code), e.getMessage());
  }

  @Test
  void networkErrorsAndTimeoutsAreRetryable() {
    ObjectStoreException reset =
        assertInstanceOf(
            ObjectStoreException.class,
            S3Errors.translate(
                SdkClientException.create("Unable to execute", new SocketException("reset")),
                WHAT));
    assertEquals(0, reset.statusCode());
    assertTrue(reset.isRetryable());
    ObjectStoreException timeout =
        assertInstanceOf(
            ObjectStoreException.class,
            S3Errors.translate(new CompletionException(new TimeoutException()), WHAT));
    assertTrue(timeout.isRetryable());
    assertTrue(timeout.getMessage().startsWith(WHAT + ": no response in time"));
  }

  @Test
  void unknownFailuresAreNotRetryable() {
    ObjectStoreException e =
        assertInstanceOf(
            ObjectStoreException.class,
            S3Errors.translate(new IllegalStateException("client closed"), WHAT));
    assertFalse(e.isRetryable());
    assertEquals(WHAT + ": client closed", e.getMessage());
  }
}
