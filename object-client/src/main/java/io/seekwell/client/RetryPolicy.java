package io.seekwell.client;

import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.ObjectStoreException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Decides whether a failed request is tried again and how long to wait first: exponential backoff
 * with full jitter: retry {@code n} (1 for the first) waits {@code random(0, min(cap, base *
 * 2^(n-1)))}, as docs/configuration.md says. A store that throttles (503 SlowDown) is given {@value
 * #THROTTLED_BASE_FACTOR} times the base, so that a burst of retries does not meet the same
 * overload. Thread-safe.
 */
final class RetryPolicy {

  /** How many times the base delay a retry after throttling starts from. */
  static final int THROTTLED_BASE_FACTOR = 10;

  private final ObjectClientConfiguration configuration;
  private final DoubleSupplier random;

  RetryPolicy(ObjectClientConfiguration configuration) {
    this(configuration, () -> ThreadLocalRandom.current().nextDouble());
  }

  /** A policy whose jitter comes from {@code random}, a source of values in [0, 1). */
  RetryPolicy(ObjectClientConfiguration configuration, DoubleSupplier random) {
    this.configuration = configuration;
    this.random = random;
  }

  ObjectClientConfiguration configuration() {
    return configuration;
  }

  int maxAttempts() {
    return configuration.maxAttempts();
  }

  Duration deadline() {
    return configuration.retryDeadline();
  }

  /**
   * The upper bound of the wait before retry number {@code retry} (1 for the first retry) after
   * {@code failure}.
   */
  Duration maxDelayBefore(int retry, Throwable failure) {
    long base = configuration.baseDelay().toNanos();
    boolean throttled = ErrorKind.of(failure) == ErrorKind.THROTTLED;
    return maxDelayBefore(retry, throttled ? base * THROTTLED_BASE_FACTOR : base);
  }

  private Duration maxDelayBefore(int retry, long base) {
    long cap = configuration.maxDelay().toNanos();
    int shift = Math.min(retry - 1, 62);
    long exponential = base > (cap >> shift) ? cap : base << shift;
    return Duration.ofNanos(Math.min(cap, exponential));
  }

  /** A random wait before retry number {@code retry} after {@code failure}, below the bound. */
  Duration delayBefore(int retry, Throwable failure) {
    return Duration.ofNanos(
        (long) (random.getAsDouble() * maxDelayBefore(retry, failure).toNanos()));
  }

  /** Whether a try {@code delayNanos} from now, {@code elapsedNanos} into a call, is too late. */
  boolean isPastDeadline(long elapsedNanos, long delayNanos) {
    return delayNanos > nanosLeft(elapsedNanos);
  }

  /** What is left of the deadline {@code elapsedNanos} into a call; negative once it has passed. */
  long nanosLeft(long elapsedNanos) {
    return deadline().toNanos() - elapsedNanos;
  }

  /**
   * What a call tried: {@code attempts} tries, {@code tied} of them sent twice at once (the first
   * among them if {@code firstTied}), and {@code hedges}.
   */
  static String tried(int attempts, int tied, boolean firstTied, int hedges) {
    return count(attempts, "attempt", "attempts")
        + tiedTries(attempts, tied, firstTied)
        + (hedges == 0 ? "" : " and " + count(hedges, "hedge", "hedges"));
  }

  private static String tiedTries(int attempts, int tied, boolean firstTied) {
    if (tied == 0) {
      return "";
    }
    if (tied == 1) {
      return firstTied ? " (the first sent twice at once)" : " (one sent twice at once)";
    }
    return tied == attempts ? " (each sent twice at once)" : " (" + tied + " sent twice at once)";
  }

  /** What a resumed body tried: {@code gets} GETs of it, the last {@code withoutAByte} in a row. */
  static String triedBody(int gets, int withoutAByte) {
    return count(gets, "GET", "GETs")
        + " of the body, "
        + withoutAByte
        + " in a row without a byte";
  }

  private static String count(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /**
   * The error to report once no attempt is left: the last one, saying how many were made, of its
   * kind and not retryable ({@link ObjectStoreException#givenUp}), so that a body is not resumed
   * again with a request that has given up.
   */
  static ObjectStoreException exhausted(IOException last, String tried) {
    return ObjectStoreException.givenUp(last.getMessage() + " (gave up after " + tried + ")", last);
  }
}
