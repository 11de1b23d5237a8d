package io.seekwell.client;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.DeclaredConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import io.seekwell.common.config.SettingValues;
import java.time.Duration;

/**
 * How the object client retries, hedges and how long it waits. Immutable and thread-safe; build one
 * with {@link #builder()} or read one with {@link #fromConfiguration}. Each setting is declared
 * once below ({@link #SETTINGS}); {@code docs/configuration.md} lists them, and {@code
 * docs/object-client.md} gives the reasoning behind the hedging and stall defaults.
 */
public final class ObjectClientConfiguration extends DeclaredConfiguration {

  /** The settings' part of the key space. */
  public static final String PREFIX = "client.";

  static final Setting<Integer> MAX_ATTEMPTS =
      Setting.count("retry.max.attempts", 5, 1, "attempts per request, the first included");
  static final Setting<Duration> BASE_DELAY =
      Setting.positiveDuration("retry.base.delay", Duration.ofMillis(100), "backoff base");
  static final Setting<Duration> MAX_DELAY =
      Setting.positiveDuration("retry.max.delay", Duration.ofSeconds(5), "backoff cap");
  static final Setting<Duration> RETRY_DEADLINE =
      Setting.positiveDuration(
          "retry.deadline",
          Duration.ofMinutes(2),
          "no retry, hedge or resume starts later than this after a request's first attempt");
  static final Setting<Duration> CONNECT_TIMEOUT =
      Setting.positiveDuration("connect.timeout", Duration.ofSeconds(10), "to open a connection");
  static final Setting<Duration> FIRST_BYTE_TIMEOUT =
      Setting.positiveDuration(
          "first.byte.timeout",
          Duration.ofSeconds(30),
          "the longest an attempt waits for its response headers");
  static final Setting<Duration> READ_IDLE_TIMEOUT =
      Setting.positiveDuration(
          "read.idle.timeout",
          Duration.ofSeconds(30),
          "longest pause between two body bytes at the HTTP client");
  static final Setting<Integer> MAX_CONNECTIONS =
      Setting.count("max.connections", 128, 1, "the most connections a client holds at once");
  static final Setting<Integer> RESUME_MAX_ATTEMPTS =
      Setting.count(
          "resume.max.attempts",
          10,
          1,
          "GETs in a row that may fail to deliver a byte of a body before the read gives up");
  static final Setting<Integer> HEDGE_MAX_COPIES =
      Setting.count(
          "hedge.max.copies",
          2,
          0,
          "copies of one GET that may be in flight besides the first while it waits for its"
              + " headers");
  static final Setting<Duration> HEDGE_FLOOR =
      Setting.positiveDuration(
          "hedge.floor", Duration.ofMillis(50), "the hedge deadline is never shorter");
  static final Setting<Double> HEDGE_BUDGET =
      Setting.number(
          "hedge.budget",
          0.05,
          0,
          1,
          "hedges that do not answer first may be at most this share of GETs");
  static final Setting<Duration> STALL_FLOOR =
      Setting.positiveDuration(
          "stall.floor",
          Duration.ofSeconds(1),
          "a body is cut as stalled only after at least this long without a byte");
  static final Setting<Integer> CONCURRENCY_MAX =
      Setting.count("concurrency.max", 1024, 1, "the most requests in flight to one bucket");

  /** Every setting of the object client, under {@link #PREFIX}. */
  public static final SettingGroup SETTINGS =
      SettingGroup.of(
          PREFIX,
          MAX_ATTEMPTS,
          BASE_DELAY,
          MAX_DELAY,
          RETRY_DEADLINE,
          CONNECT_TIMEOUT,
          FIRST_BYTE_TIMEOUT,
          READ_IDLE_TIMEOUT,
          MAX_CONNECTIONS,
          RESUME_MAX_ATTEMPTS,
          HEDGE_MAX_COPIES,
          HEDGE_FLOOR,
          HEDGE_BUDGET,
          STALL_FLOOR,
          CONCURRENCY_MAX);

  private static final ObjectClientConfiguration DEFAULTS =
      new ObjectClientConfiguration(SETTINGS.defaults());

  private ObjectClientConfiguration(SettingValues values) {
    super(values);
  }

  /** The defaults listed in {@code docs/configuration.md}. */
  public static ObjectClientConfiguration defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return DEFAULTS.toBuilder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(values());
  }

  /**
   * Reads the settings under {@code client.} of {@code configuration}; unset keys get defaults.
   *
   * @throws IllegalArgumentException naming the key, for a value that cannot be used
   */
  public static ObjectClientConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    return new ObjectClientConfiguration(SETTINGS.read(configuration));
  }

  /** Attempts per request, the first one included (1 = no retries). */
  public int maxAttempts() {
    return get(MAX_ATTEMPTS);
  }

  /** The backoff base. */
  public Duration baseDelay() {
    return get(BASE_DELAY);
  }

  /** The backoff cap. */
  public Duration maxDelay() {
    return get(MAX_DELAY);
  }

  /** No retry, resume or hedge starts later than this after a request's first attempt. */
  public Duration retryDeadline() {
    return get(RETRY_DEADLINE);
  }

  /** To open a connection. */
  public Duration connectTimeout() {
    return get(CONNECT_TIMEOUT);
  }

  /** From sending a request to its response headers; the ceiling of the hedge deadline. */
  public Duration firstByteTimeout() {
    return get(FIRST_BYTE_TIMEOUT);
  }

  /** The longest pause between two body bytes; the ceiling of the stall deadline. */
  public Duration readIdleTimeout() {
    return get(READ_IDLE_TIMEOUT);
  }

  /**
   * The most connections a client holds at once (requests waiting for headers and bodies not yet
   * read), and the pool size of the SDK clients Seekwell builds; also the threads of a client over
   * a blocking S3 client. Requests over it wait in Seekwell, not in the HTTP client.
   */
  public int maxConnections() {
    return get(MAX_CONNECTIONS);
  }

  /**
   * GETs of one body in a row that may deliver no byte before the read gives up; a body that keeps
   * making progress is always finished. Independent of retries.
   */
  public int resumeMaxAttempts() {
    return get(RESUME_MAX_ATTEMPTS);
  }

  /**
   * At most this many copies of one GET are in flight besides the first while it waits for its
   * headers; past that, the oldest is abandoned for each new copy (0 = no hedging).
   */
  public int hedgeMaxCopies() {
    return get(HEDGE_MAX_COPIES);
  }

  /** The hedge deadline is never shorter than this. */
  public Duration hedgeFloor() {
    return get(HEDGE_FLOOR);
  }

  /** Hedges that do not answer first may be at most this share of GETs (plus a small burst). */
  public double hedgeBudget() {
    return get(HEDGE_BUDGET);
  }

  /** A body is cut as stalled only after at least this long without a byte. */
  public Duration stallFloor() {
    return get(STALL_FLOOR);
  }

  /**
   * The most requests in flight to one bucket. Each bucket's adaptive limit starts here, is cut
   * when the store throttles, and grows back towards it while requests succeed.
   */
  public int concurrencyMax() {
    return get(CONCURRENCY_MAX);
  }

  /**
   * These settings for a client whose requests go through an engine's HTTP client with a pool of
   * {@code poolConnections}: at most three quarters of the pool (at least one), so that Seekwell's
   * requests never wait inside that client for a connection and the engine's own requests (writes,
   * listings) still find one.
   */
  public ObjectClientConfiguration sharingPoolOf(int poolConnections) {
    int share = (int) Math.max(1, poolConnections * 3L / 4);
    return share >= maxConnections() ? this : toBuilder().maxConnections(share).build();
  }

  /** These settings with another number of attempts. */
  public ObjectClientConfiguration withMaxAttempts(int attempts) {
    return toBuilder().maxAttempts(attempts).build();
  }

  /** These settings with other timeouts for the first byte and for body pauses. */
  public ObjectClientConfiguration withTimeouts(Duration firstByte, Duration readIdle) {
    return toBuilder().firstByteTimeout(firstByte).readIdleTimeout(readIdle).build();
  }

  /** These settings with another backoff base and cap. */
  public ObjectClientConfiguration withRetryDelays(Duration base, Duration cap) {
    return toBuilder().baseDelay(base).maxDelay(cap).build();
  }

  /**
   * Builds {@link ObjectClientConfiguration}s; each method sets the setting of the same name, and
   * refuses a value out of its range naming the key. Not thread-safe.
   */
  public static final class Builder extends DeclaredConfiguration.Builder<Builder> {

    private Builder(SettingValues values) {
      super(values);
    }

    /** See {@link ObjectClientConfiguration#maxAttempts()}. */
    public Builder maxAttempts(int value) {
      return set(MAX_ATTEMPTS, value);
    }

    /** See {@link ObjectClientConfiguration#baseDelay()}. */
    public Builder baseDelay(Duration value) {
      return set(BASE_DELAY, value);
    }

    /** See {@link ObjectClientConfiguration#maxDelay()}. */
    public Builder maxDelay(Duration value) {
      return set(MAX_DELAY, value);
    }

    /** See {@link ObjectClientConfiguration#retryDeadline()}. */
    public Builder retryDeadline(Duration value) {
      return set(RETRY_DEADLINE, value);
    }

    /** See {@link ObjectClientConfiguration#connectTimeout()}. */
    public Builder connectTimeout(Duration value) {
      return set(CONNECT_TIMEOUT, value);
    }

    /** See {@link ObjectClientConfiguration#firstByteTimeout()}. */
    public Builder firstByteTimeout(Duration value) {
      return set(FIRST_BYTE_TIMEOUT, value);
    }

    /** See {@link ObjectClientConfiguration#readIdleTimeout()}. */
    public Builder readIdleTimeout(Duration value) {
      return set(READ_IDLE_TIMEOUT, value);
    }

    /** See {@link ObjectClientConfiguration#maxConnections()}. */
    public Builder maxConnections(int value) {
      return set(MAX_CONNECTIONS, value);
    }

    /** See {@link ObjectClientConfiguration#resumeMaxAttempts()}. */
    public Builder resumeMaxAttempts(int value) {
      return set(RESUME_MAX_ATTEMPTS, value);
    }

    /** See {@link ObjectClientConfiguration#hedgeMaxCopies()}. */
    public Builder hedgeMaxCopies(int value) {
      return set(HEDGE_MAX_COPIES, value);
    }

    /** See {@link ObjectClientConfiguration#hedgeFloor()}. */
    public Builder hedgeFloor(Duration value) {
      return set(HEDGE_FLOOR, value);
    }

    /** See {@link ObjectClientConfiguration#hedgeBudget()}. */
    public Builder hedgeBudget(double value) {
      return set(HEDGE_BUDGET, value);
    }

    /** See {@link ObjectClientConfiguration#stallFloor()}. */
    public Builder stallFloor(Duration value) {
      return set(STALL_FLOOR, value);
    }

    /** See {@link ObjectClientConfiguration#concurrencyMax()}. */
    public Builder concurrencyMax(int value) {
      return set(CONCURRENCY_MAX, value);
    }

    /** The settings, each already checked against its range. */
    public ObjectClientConfiguration build() {
      return new ObjectClientConfiguration(values());
    }
  }
}
