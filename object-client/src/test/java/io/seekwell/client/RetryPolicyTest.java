package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectStoreException;
import java.net.SocketException;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private static final SocketException NETWORK_ERROR = new SocketException("Connection reset");

  private static final ObjectClientConfiguration CONFIG =
      ObjectClientConfiguration.defaults()
          .withRetryDelays(Duration.ofMillis(100), Duration.ofSeconds(5));

  @Test
  void upperBoundDoublesUpToTheCap() {
    RetryPolicy policy = new RetryPolicy(CONFIG, () -> 0.5);
    assertEquals(Duration.ofMillis(100), policy.maxDelayBefore(1, NETWORK_ERROR));
    assertEquals(Duration.ofMillis(200), policy.maxDelayBefore(2, NETWORK_ERROR));
    assertEquals(Duration.ofMillis(400), policy.maxDelayBefore(3, NETWORK_ERROR));
    assertEquals(Duration.ofMillis(3200), policy.maxDelayBefore(6, NETWORK_ERROR));
    assertEquals(Duration.ofSeconds(5), policy.maxDelayBefore(7, NETWORK_ERROR));
    assertEquals(Duration.ofSeconds(5), policy.maxDelayBefore(1000, NETWORK_ERROR));
  }

  @Test
  void aThrottledRequestBacksOffFromTenTimesTheBase() {
    RetryPolicy policy = new RetryPolicy(CONFIG, () -> 0.5);
    ObjectStoreException slowDown =
        new ObjectStoreException("GET x: SlowDown", 503, "SlowDown", "r", true, null);
    assertEquals(Duration.ofSeconds(1), policy.maxDelayBefore(1, slowDown));
    assertEquals(Duration.ofSeconds(2), policy.maxDelayBefore(2, slowDown));
    assertEquals(Duration.ofSeconds(5), policy.maxDelayBefore(4, slowDown));
    assertEquals(Duration.ofMillis(500), policy.delayBefore(1, slowDown));
    ObjectStoreException serverError =
        new ObjectStoreException("GET x: InternalError", 500, "InternalError", "r", true, null);
    assertEquals(Duration.ofMillis(100), policy.maxDelayBefore(1, serverError));
    assertEquals(
        Duration.ofMillis(100), policy.maxDelayBefore(1, new SocketException("Connection reset")));
  }

  @Test
  void delayIsTheRandomFractionOfTheBound() {
    assertEquals(
        Duration.ofMillis(50), new RetryPolicy(CONFIG, () -> 0.5).delayBefore(1, NETWORK_ERROR));
    assertEquals(Duration.ZERO, new RetryPolicy(CONFIG, () -> 0.0).delayBefore(4, NETWORK_ERROR));
    assertEquals(
        Duration.ofMillis(200), new RetryPolicy(CONFIG, () -> 0.25).delayBefore(4, NETWORK_ERROR));
  }

  @Property
  void fullJitterStaysWithinZeroAndTheCappedExponential(
      @ForAll @IntRange(min = 1, max = 80) int retry,
      @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
    Duration delay = new RetryPolicy(CONFIG, () -> random).delayBefore(retry, NETWORK_ERROR);
    double bound = Math.min(5000.0, 100.0 * Math.pow(2, retry - 1));
    assertTrue(!delay.isNegative(), delay::toString);
    assertTrue(delay.toNanos() < bound * 1_000_000, () -> delay + " >= " + bound + " ms");
  }

  @Test
  void exhaustedKeepsTheLastErrorsKindAndCountsAttempts() {
    ObjectStoreException last = storeError(503, true);
    ObjectStoreException store = RetryPolicy.exhausted(last, "5 attempts");
    assertEquals(503, store.statusCode());
    assertEquals("SlowDown", store.errorCode().orElseThrow());
    assertEquals(ErrorKind.THROTTLED, store.kind());
    assertEquals("GET s3://b/k [0-9]: slow down (gave up after 5 attempts)", store.getMessage());
    assertFalse(store.isRetryable());
    assertSame(last, store.getCause());

    ObjectStoreException stall =
        RetryPolicy.exhausted(ObjectStoreException.stalled("no headers", null), "2 attempts");
    assertEquals(ErrorKind.STALLED, stall.kind(), "a stall given up is still a stall");
    assertFalse(ErrorKind.isRetryable(stall));

    SocketException socket = new SocketException("reset");
    ObjectStoreException reset = RetryPolicy.exhausted(socket, "1 attempt and 2 hedges");
    assertEquals("reset (gave up after 1 attempt and 2 hedges)", reset.getMessage());
    assertEquals(ErrorKind.TRANSIENT, reset.kind(), "not OTHER: the kind is the error's");
    assertEquals(0, reset.statusCode());
    assertFalse(ErrorKind.isRetryable(reset), "no layer above tries a given-up request again");
    assertSame(socket, reset.getCause());
  }

  @Test
  void whatWasTriedIsCountedInWords() {
    assertEquals("1 attempt", RetryPolicy.tried(1, 0, false, 0));
    assertEquals("1 attempt (the first sent twice at once)", RetryPolicy.tried(1, 1, true, 0));
    assertEquals(
        "3 attempts (the first sent twice at once) and 1 hedge", RetryPolicy.tried(3, 1, true, 1));
    assertEquals("2 attempts (one sent twice at once)", RetryPolicy.tried(2, 1, false, 0));
    assertEquals("3 attempts (2 sent twice at once)", RetryPolicy.tried(3, 2, false, 0));
    assertEquals("2 attempts (each sent twice at once)", RetryPolicy.tried(2, 2, true, 0));
    assertEquals("1 GET of the body, 1 in a row without a byte", RetryPolicy.triedBody(1, 1));
    assertEquals("4 GETs of the body, 2 in a row without a byte", RetryPolicy.triedBody(4, 2));
  }

  @Test
  void theDeadlineIsPassedByATryThatWouldStartAfterIt() {
    RetryPolicy policy =
        new RetryPolicy(CONFIG.toBuilder().retryDeadline(Duration.ofSeconds(10)).build());
    long second = Duration.ofSeconds(1).toNanos();
    assertEquals(7 * second, policy.nanosLeft(3 * second));
    assertFalse(policy.isPastDeadline(3 * second, 7 * second));
    assertTrue(policy.isPastDeadline(3 * second, 7 * second + 1));
    assertTrue(policy.nanosLeft(11 * second) < 0);
  }

  private static ObjectStoreException storeError(int status, boolean retryable) {
    return new ObjectStoreException(
        "GET s3://b/k [0-9]: slow down", status, "SlowDown", "req-1", retryable, null);
  }
}
