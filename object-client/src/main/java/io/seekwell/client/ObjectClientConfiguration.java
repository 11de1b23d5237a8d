package io.seekwell.client;

import io.seekwell.common.config.ConnectorConfiguration;
import java.time.Duration;

/**
 * How the object client retries and how long it waits. Immutable and thread-safe.
 *
 * <p>Keys, read under the {@code client.} part of a {@link ConnectorConfiguration} (so {@code
 * seekwell.client.retry.max.attempts} for a configuration with prefix {@code seekwell.}):
 *
 * <table>
 *   <caption>Object client settings</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code retry.max.attempts}</td><td>5</td>
 *       <td>attempts per request, the first one included (1 = no retries)</td></tr>
 *   <tr><td>{@code retry.base.delay}</td><td>100ms</td>
 *       <td>backoff base: attempt n waits a random time in [0, min(cap, base * 2^n))</td></tr>
 *   <tr><td>{@code retry.max.delay}</td><td>5s</td><td>backoff cap</td></tr>
 *   <tr><td>{@code retry.deadline}</td><td>2m</td>
 *       <td>no retry starts later than this after the first attempt</td></tr>
 *   <tr><td>{@code connect.timeout}</td><td>10s</td><td>to open a connection</td></tr>
 *   <tr><td>{@code first.byte.timeout}</td><td>30s</td>
 *       <td>from sending a request to its response headers</td></tr>
 *   <tr><td>{@code read.idle.timeout}</td><td>30s</td>
 *       <td>longest pause between two body bytes</td></tr>
 *   <tr><td>{@code max.connections}</td><td>128</td>
 *       <td>connections (and blocking threads, for the sync client) per client</td></tr>
 * </table>
 *
 * <p>The timeouts bound the HTTP clients Seekwell builds ({@link SdkClients}). The first-byte
 * timeout is also enforced by Seekwell itself on any SDK client; the connect and idle timeouts of
 * an SDK client built by the caller are the caller's.
 *
 * @param maxAttempts attempts per request, the first one included
 * @param baseDelay backoff base
 * @param maxDelay backoff cap
 * @param retryDeadline no retry starts later than this after the first attempt
 * @param connectTimeout to open a connection
 * @param firstByteTimeout from sending a request to its response headers
 * @param readIdleTimeout longest pause between two body bytes
 * @param maxConnections connections per client
 */
public record ObjectClientConfiguration(
    int maxAttempts,
    Duration baseDelay,
    Duration maxDelay,
    Duration retryDeadline,
    Duration connectTimeout,
    Duration firstByteTimeout,
    Duration readIdleTimeout,
    int maxConnections) {

  /** The settings' part of the key space. */
  public static final String PREFIX = "client.";

  private static final ObjectClientConfiguration DEFAULTS =
      new ObjectClientConfiguration(
          5,
          Duration.ofMillis(100),
          Duration.ofSeconds(5),
          Duration.ofMinutes(2),
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofSeconds(30),
          128);

  /** Validates the settings. */
  public ObjectClientConfiguration {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be >= 1, was " + maxConnections);
    }
    requirePositive("baseDelay", baseDelay);
    requirePositive("maxDelay", maxDelay);
    requirePositive("retryDeadline", retryDeadline);
    requirePositive("connectTimeout", connectTimeout);
    requirePositive("firstByteTimeout", firstByteTimeout);
    requirePositive("readIdleTimeout", readIdleTimeout);
  }

  /** The defaults listed above. */
  public static ObjectClientConfiguration defaults() {
    return DEFAULTS;
  }

  /** Reads the settings under {@code client.} of {@code configuration}; unset keys get defaults. */
  public static ObjectClientConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration client = configuration.narrow(PREFIX);
    return new ObjectClientConfiguration(
        client.getInt("retry.max.attempts", DEFAULTS.maxAttempts, 1),
        client.getPositiveDuration("retry.base.delay", DEFAULTS.baseDelay),
        client.getPositiveDuration("retry.max.delay", DEFAULTS.maxDelay),
        client.getPositiveDuration("retry.deadline", DEFAULTS.retryDeadline),
        client.getPositiveDuration("connect.timeout", DEFAULTS.connectTimeout),
        client.getPositiveDuration("first.byte.timeout", DEFAULTS.firstByteTimeout),
        client.getPositiveDuration("read.idle.timeout", DEFAULTS.readIdleTimeout),
        client.getInt("max.connections", DEFAULTS.maxConnections, 1));
  }

  /** These settings with another number of attempts. */
  public ObjectClientConfiguration withMaxAttempts(int attempts) {
    return new ObjectClientConfiguration(
        attempts,
        baseDelay,
        maxDelay,
        retryDeadline,
        connectTimeout,
        firstByteTimeout,
        readIdleTimeout,
        maxConnections);
  }

  /** These settings with other timeouts for the first byte and for body pauses. */
  public ObjectClientConfiguration withTimeouts(Duration firstByte, Duration readIdle) {
    return new ObjectClientConfiguration(
        maxAttempts,
        baseDelay,
        maxDelay,
        retryDeadline,
        connectTimeout,
        firstByte,
        readIdle,
        maxConnections);
  }

  /** These settings with another backoff base and cap. */
  public ObjectClientConfiguration withRetryDelays(Duration base, Duration cap) {
    return new ObjectClientConfiguration(
        maxAttempts,
        base,
        cap,
        retryDeadline,
        connectTimeout,
        firstByteTimeout,
        readIdleTimeout,
        maxConnections);
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
    }
  }
}
