package io.seekwell.client;

import io.seekwell.common.config.ConnectorConfiguration;
import java.time.Duration;
import java.util.Objects;

/**
 * How the object client retries, hedges and how long it waits. Immutable and thread-safe; build one
 * with {@link #builder()} or read one with {@link #fromConfiguration}. Every key and default is
 * listed in {@code docs/configuration.md}, with the reasoning behind the hedging and stall defaults
 * in {@code docs/object-client.md}.
 */
public final class ObjectClientConfiguration {

  /** The settings' part of the key space. */
  public static final String PREFIX = "client.";

  private static final ObjectClientConfiguration DEFAULTS = new Builder().build();

  private final int maxAttempts;
  private final Duration baseDelay;
  private final Duration maxDelay;
  private final Duration retryDeadline;
  private final Duration connectTimeout;
  private final Duration firstByteTimeout;
  private final Duration readIdleTimeout;
  private final int maxConnections;
  private final int resumeMaxAttempts;
  private final int hedgeMaxCopies;
  private final Duration hedgeFloor;
  private final double hedgeBudget;
  private final Duration stallFloor;
  private final int concurrencyMax;

  private ObjectClientConfiguration(Builder builder) {
    this.maxAttempts = requireAtLeast("maxAttempts", builder.maxAttempts, 1);
    this.baseDelay = requirePositive("baseDelay", builder.baseDelay);
    this.maxDelay = requirePositive("maxDelay", builder.maxDelay);
    this.retryDeadline = requirePositive("retryDeadline", builder.retryDeadline);
    this.connectTimeout = requirePositive("connectTimeout", builder.connectTimeout);
    this.firstByteTimeout = requirePositive("firstByteTimeout", builder.firstByteTimeout);
    this.readIdleTimeout = requirePositive("readIdleTimeout", builder.readIdleTimeout);
    this.maxConnections = requireAtLeast("maxConnections", builder.maxConnections, 1);
    this.resumeMaxAttempts = requireAtLeast("resumeMaxAttempts", builder.resumeMaxAttempts, 1);
    this.hedgeMaxCopies = requireAtLeast("hedgeMaxCopies", builder.hedgeMaxCopies, 0);
    this.hedgeFloor = requirePositive("hedgeFloor", builder.hedgeFloor);
    this.stallFloor = requirePositive("stallFloor", builder.stallFloor);
    this.concurrencyMax = requireAtLeast("concurrencyMax", builder.concurrencyMax, 1);
    if (!(builder.hedgeBudget >= 0 && builder.hedgeBudget <= 1)) {
      throw new IllegalArgumentException(
          "hedgeBudget must be from 0 to 1, was " + builder.hedgeBudget);
    }
    this.hedgeBudget = builder.hedgeBudget;
  }

  /** The defaults listed in {@code docs/configuration.md}. */
  public static ObjectClientConfiguration defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Reads the settings under {@code client.} of {@code configuration}; unset keys get defaults.
   *
   * @throws IllegalArgumentException naming the key, for a value that cannot be used
   */
  public static ObjectClientConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration client = configuration.narrow(PREFIX);
    Builder builder = builder();
    builder.maxAttempts = client.getInt("retry.max.attempts", DEFAULTS.maxAttempts, 1);
    builder.baseDelay = client.getPositiveDuration("retry.base.delay", DEFAULTS.baseDelay);
    builder.maxDelay = client.getPositiveDuration("retry.max.delay", DEFAULTS.maxDelay);
    builder.retryDeadline = client.getPositiveDuration("retry.deadline", DEFAULTS.retryDeadline);
    builder.connectTimeout = client.getPositiveDuration("connect.timeout", DEFAULTS.connectTimeout);
    builder.firstByteTimeout =
        client.getPositiveDuration("first.byte.timeout", DEFAULTS.firstByteTimeout);
    builder.readIdleTimeout =
        client.getPositiveDuration("read.idle.timeout", DEFAULTS.readIdleTimeout);
    builder.maxConnections = client.getInt("max.connections", DEFAULTS.maxConnections, 1);
    builder.resumeMaxAttempts = client.getInt("resume.max.attempts", DEFAULTS.resumeMaxAttempts, 1);
    builder.hedgeMaxCopies = client.getInt("hedge.max.copies", DEFAULTS.hedgeMaxCopies, 0);
    builder.hedgeFloor = client.getPositiveDuration("hedge.floor", DEFAULTS.hedgeFloor);
    builder.hedgeBudget = client.getDouble("hedge.budget", DEFAULTS.hedgeBudget, 0);
    if (builder.hedgeBudget > 1) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + builder.hedgeBudget
              + "' for configuration key '"
              + client.fullKey("hedge.budget")
              + "': expected at most 1");
    }
    builder.stallFloor = client.getPositiveDuration("stall.floor", DEFAULTS.stallFloor);
    builder.concurrencyMax = client.getInt("concurrency.max", DEFAULTS.concurrencyMax, 1);
    return builder.build();
  }

  /** Attempts per request, the first one included (1 = no retries). */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The backoff base. */
  public Duration baseDelay() {
    return baseDelay;
  }

  /** The backoff cap. */
  public Duration maxDelay() {
    return maxDelay;
  }

  /** No retry, resume or hedge starts later than this after a request's first attempt. */
  public Duration retryDeadline() {
    return retryDeadline;
  }

  /** To open a connection. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** From sending a request to its response headers; the ceiling of the hedge deadline. */
  public Duration firstByteTimeout() {
    return firstByteTimeout;
  }

  /** The longest pause between two body bytes; the ceiling of the stall deadline. */
  public Duration readIdleTimeout() {
    return readIdleTimeout;
  }

  /**
   * The most connections a client holds at once (requests waiting for headers and bodies not yet
   * read), and the pool size of the SDK clients Seekwell builds; also the threads of a client over
   * a blocking S3 client. Requests over it wait in Seekwell, not in the HTTP client.
   */
  public int maxConnections() {
    return maxConnections;
  }

  /**
   * GETs of one body in a row that may deliver no byte before the read gives up; a body that keeps
   * making progress is always finished. Independent of retries.
   */
  public int resumeMaxAttempts() {
    return resumeMaxAttempts;
  }

  /**
   * At most this many copies of one GET are in flight besides the first while it waits for its
   * headers; past that, the oldest is abandoned for each new copy (0 = no hedging).
   */
  public int hedgeMaxCopies() {
    return hedgeMaxCopies;
  }

  /** The hedge deadline is never shorter than this. */
  public Duration hedgeFloor() {
    return hedgeFloor;
  }

  /** Hedges that do not answer first may be at most this share of GETs (plus a small burst). */
  public double hedgeBudget() {
    return hedgeBudget;
  }

  /** A body is cut as stalled only after at least this long without a byte. */
  public Duration stallFloor() {
    return stallFloor;
  }

  /**
   * The most requests in flight to one bucket. Each bucket's adaptive limit starts here, is cut
   * when the store throttles, and grows back towards it while requests succeed.
   */
  public int concurrencyMax() {
    return concurrencyMax;
  }

  /**
   * These settings for a client whose requests go through an engine's HTTP client with a pool of
   * {@code poolConnections}: at most three quarters of the pool (at least one), so that Seekwell's
   * requests never wait inside that client for a connection and the engine's own requests (writes,
   * listings) still find one.
   */
  public ObjectClientConfiguration sharingPoolOf(int poolConnections) {
    int share = (int) Math.max(1, poolConnections * 3L / 4);
    return share >= maxConnections ? this : toBuilder().maxConnections(share).build();
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

  @Override
  public boolean equals(Object other) {
    return other instanceof ObjectClientConfiguration that
        && maxAttempts == that.maxAttempts
        && baseDelay.equals(that.baseDelay)
        && maxDelay.equals(that.maxDelay)
        && retryDeadline.equals(that.retryDeadline)
        && connectTimeout.equals(that.connectTimeout)
        && firstByteTimeout.equals(that.firstByteTimeout)
        && readIdleTimeout.equals(that.readIdleTimeout)
        && maxConnections == that.maxConnections
        && resumeMaxAttempts == that.resumeMaxAttempts
        && hedgeMaxCopies == that.hedgeMaxCopies
        && hedgeFloor.equals(that.hedgeFloor)
        && hedgeBudget == that.hedgeBudget
        && stallFloor.equals(that.stallFloor)
        && concurrencyMax == that.concurrencyMax;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        maxAttempts,
        baseDelay,
        maxDelay,
        retryDeadline,
        connectTimeout,
        firstByteTimeout,
        readIdleTimeout,
        maxConnections,
        resumeMaxAttempts,
        hedgeMaxCopies,
        hedgeFloor,
        hedgeBudget,
        stallFloor,
        concurrencyMax);
  }

  @Override
  public String toString() {
    return "ObjectClientConfiguration{maxAttempts="
        + maxAttempts
        + ", baseDelay="
        + baseDelay
        + ", maxDelay="
        + maxDelay
        + ", retryDeadline="
        + retryDeadline
        + ", connectTimeout="
        + connectTimeout
        + ", firstByteTimeout="
        + firstByteTimeout
        + ", readIdleTimeout="
        + readIdleTimeout
        + ", maxConnections="
        + maxConnections
        + ", resumeMaxAttempts="
        + resumeMaxAttempts
        + ", hedgeMaxCopies="
        + hedgeMaxCopies
        + ", hedgeFloor="
        + hedgeFloor
        + ", hedgeBudget="
        + hedgeBudget
        + ", stallFloor="
        + stallFloor
        + ", concurrencyMax="
        + concurrencyMax
        + "}";
  }

  private static int requireAtLeast(String name, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be >= " + min + ", was " + value);
    }
    return value;
  }

  private static Duration requirePositive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
    }
    return value;
  }

  /** Builds {@link ObjectClientConfiguration}s. Not thread-safe. */
  public static final class Builder {
    private int maxAttempts = 5;
    private Duration baseDelay = Duration.ofMillis(100);
    private Duration maxDelay = Duration.ofSeconds(5);
    private Duration retryDeadline = Duration.ofMinutes(2);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration firstByteTimeout = Duration.ofSeconds(30);
    private Duration readIdleTimeout = Duration.ofSeconds(30);
    private int maxConnections = 128;
    private int resumeMaxAttempts = 10;
    private int hedgeMaxCopies = 2;
    private Duration hedgeFloor = Duration.ofMillis(50);
    private double hedgeBudget = 0.05;
    private Duration stallFloor = Duration.ofSeconds(1);
    private int concurrencyMax = 1024;

    private Builder() {}

    private Builder(ObjectClientConfiguration from) {
      maxAttempts = from.maxAttempts;
      baseDelay = from.baseDelay;
      maxDelay = from.maxDelay;
      retryDeadline = from.retryDeadline;
      connectTimeout = from.connectTimeout;
      firstByteTimeout = from.firstByteTimeout;
      readIdleTimeout = from.readIdleTimeout;
      maxConnections = from.maxConnections;
      resumeMaxAttempts = from.resumeMaxAttempts;
      hedgeMaxCopies = from.hedgeMaxCopies;
      hedgeFloor = from.hedgeFloor;
      hedgeBudget = from.hedgeBudget;
      stallFloor = from.stallFloor;
      concurrencyMax = from.concurrencyMax;
    }

    /** See {@link ObjectClientConfiguration#maxAttempts()}. */
    public Builder maxAttempts(int value) {
      maxAttempts = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#baseDelay()}. */
    public Builder baseDelay(Duration value) {
      baseDelay = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#maxDelay()}. */
    public Builder maxDelay(Duration value) {
      maxDelay = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#retryDeadline()}. */
    public Builder retryDeadline(Duration value) {
      retryDeadline = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#connectTimeout()}. */
    public Builder connectTimeout(Duration value) {
      connectTimeout = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#firstByteTimeout()}. */
    public Builder firstByteTimeout(Duration value) {
      firstByteTimeout = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#readIdleTimeout()}. */
    public Builder readIdleTimeout(Duration value) {
      readIdleTimeout = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#maxConnections()}. */
    public Builder maxConnections(int value) {
      maxConnections = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#resumeMaxAttempts()}. */
    public Builder resumeMaxAttempts(int value) {
      resumeMaxAttempts = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#hedgeMaxCopies()}. */
    public Builder hedgeMaxCopies(int value) {
      hedgeMaxCopies = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#hedgeFloor()}. */
    public Builder hedgeFloor(Duration value) {
      hedgeFloor = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#hedgeBudget()}. */
    public Builder hedgeBudget(double value) {
      hedgeBudget = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#stallFloor()}. */
    public Builder stallFloor(Duration value) {
      stallFloor = value;
      return this;
    }

    /** See {@link ObjectClientConfiguration#concurrencyMax()}. */
    public Builder concurrencyMax(int value) {
      concurrencyMax = value;
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException for a value that cannot be used
     */
    public ObjectClientConfiguration build() {
      return new ObjectClientConfiguration(this);
    }
  }
}
