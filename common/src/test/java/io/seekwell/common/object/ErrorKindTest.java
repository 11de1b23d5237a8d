package io.seekwell.common.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.net.SocketException;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorKindTest {

  @Test
  void typedExceptionsHaveTheirKind() {
    assertEquals(ErrorKind.NOT_FOUND, ErrorKind.of(new FileNotFoundException("x")));
    assertEquals(ErrorKind.DENIED, ErrorKind.of(new AccessDeniedException("x")));
    assertEquals(ErrorKind.CHANGED, ErrorKind.of(new ObjectChangedException("x", null)));
    assertEquals(ErrorKind.RANGE, ErrorKind.of(new EOFException("x")));
    assertEquals(ErrorKind.TRANSIENT, ErrorKind.of(new SocketException("reset")));
    assertEquals(ErrorKind.OTHER, ErrorKind.of(new IllegalStateException("x")));
    assertEquals(
        ErrorKind.NOT_FOUND, ErrorKind.of(new CompletionException(new FileNotFoundException())));
  }

  @Test
  void storeErrorsAreClassifiedByStatusAndCode() {
    assertEquals(ErrorKind.THROTTLED, storeError(503, null, true).kind());
    assertEquals(ErrorKind.THROTTLED, storeError(429, null, true).kind());
    assertEquals(ErrorKind.THROTTLED, storeError(200, "SlowDown", true).kind());
    assertEquals(ErrorKind.SERVER, storeError(500, "InternalError", true).kind());
    assertEquals(ErrorKind.SERVER, storeError(501, null, false).kind());
    assertEquals(ErrorKind.CLIENT, storeError(400, "RequestTimeout", true).kind());
    assertEquals(ErrorKind.TRANSIENT, storeError(0, null, true).kind());
    assertEquals(ErrorKind.OTHER, storeError(0, null, false).kind());
    assertEquals(ErrorKind.STALLED, ObjectStoreException.stalled("cut", null).kind());
    assertTrue(storeError(429, null, true).isThrottling());
    assertFalse(ObjectStoreException.stalled("cut", null).isThrottling());
  }

  @Test
  void eachKindIsCountedInOneMetric() {
    assertEquals(Metric.ERRORS_NETWORK, ErrorKind.STALLED.metric());
    assertEquals(Metric.ERRORS_NETWORK, ErrorKind.TRANSIENT.metric());
    assertEquals(Metric.ERRORS_OTHER, ErrorKind.CLIENT.metric());
    assertEquals(Metric.ERRORS_SERVER, ErrorKind.SERVER.metric());
  }

  @Test
  void retryableFailures() {
    assertTrue(ErrorKind.isRetryable(storeError(503, "SlowDown", true)));
    assertTrue(ErrorKind.isRetryable(new SocketException("Connection reset")));
    assertTrue(ErrorKind.isRetryable(ObjectStoreException.stalled("cut", null)));
    assertFalse(ErrorKind.isRetryable(storeError(400, "SlowDown", false)));
    assertFalse(ErrorKind.isRetryable(new FileNotFoundException("x")));
    assertFalse(ErrorKind.isRetryable(new AccessDeniedException("x")));
    assertFalse(ErrorKind.isRetryable(new EOFException("x")));
    assertFalse(ErrorKind.isRetryable(new ObjectChangedException("x", null)));
    assertFalse(ErrorKind.isRetryable(new IllegalStateException("x")));
  }

  @Test
  void aStoreErrorSaysItselfWhetherItIsRetriedWhateverItsKind() {
    ObjectStoreException requestTimeout =
        storeError(400, "RequestTimeout", ErrorKind.storeMayRetry(400, "RequestTimeout"));
    assertEquals(ErrorKind.CLIENT, requestTimeout.kind());
    assertTrue(ErrorKind.isRetryable(requestTimeout));
    ObjectStoreException notImplemented = storeError(501, null, ErrorKind.storeMayRetry(501, null));
    assertEquals(ErrorKind.SERVER, notImplemented.kind());
    assertFalse(ErrorKind.isRetryable(notImplemented));
  }

  @Test
  void anErrorGivenUpKeepsItsKindAndIsNotRetryable() {
    ObjectStoreException slowDown = storeError(503, "SlowDown", true);
    ObjectStoreException throttled = ObjectStoreException.givenUp("gave up", slowDown);
    assertEquals(ErrorKind.THROTTLED, throttled.kind());
    assertEquals(503, throttled.statusCode());
    assertEquals("req-1", throttled.requestId().orElseThrow());
    assertFalse(ErrorKind.isRetryable(throttled));

    ObjectStoreException stall = ObjectStoreException.stalled("cut", null);
    assertEquals(ErrorKind.STALLED, ObjectStoreException.givenUp("gave up", stall).kind());
    ObjectStoreException transientError = storeError(0, null, true);
    assertEquals(ErrorKind.TRANSIENT, ObjectStoreException.givenUp("x", transientError).kind());

    SocketException reset = new SocketException("Connection reset");
    ObjectStoreException network = ObjectStoreException.givenUp("gave up", reset);
    assertEquals(ErrorKind.TRANSIENT, network.kind());
    assertEquals(Metric.ERRORS_NETWORK, network.kind().metric());
    assertFalse(ErrorKind.isRetryable(network));
    assertEquals(reset, network.getCause());
  }

  @Test
  void theStoreMayRetryThrottlingServerErrorsAndTimeouts() {
    for (int status : new int[] {429, 500, 502, 503, 504}) {
      assertTrue(ErrorKind.storeMayRetry(status, null), () -> "HTTP " + status);
    }
    assertTrue(ErrorKind.storeMayRetry(400, "RequestTimeout"));
    assertTrue(ErrorKind.storeMayRetry(400, "SlowDown"));
    assertFalse(ErrorKind.storeMayRetry(501, null));
    assertFalse(ErrorKind.storeMayRetry(400, "InvalidArgument"));
  }

  private static ObjectStoreException storeError(int status, String code, boolean retryable) {
    return new ObjectStoreException("GET s3://b/k [0-9]", status, code, "req-1", retryable, null);
  }
}
