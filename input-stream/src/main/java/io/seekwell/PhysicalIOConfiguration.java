package io.seekwell;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.DeclaredConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import io.seekwell.common.config.SettingValues;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * How the physical IO layer caches and shapes requests. Immutable and thread-safe. Each setting is
 * declared once below ({@link #SETTINGS}) and listed in {@code docs/configuration.md}; start from
 * {@link #DEFAULT} and change settings with {@link #toBuilder()} or {@link #withMaxMemoryLimit}.
 */
public final class PhysicalIOConfiguration extends DeclaredConfiguration {

  /** The settings' part of the key space. */
  public static final String PREFIX = "physicalio.";

  /** The value of {@code coalesceTolerance} that means: measure it. */
  public static final long AUTO_COALESCE = -1;

  /**
   * The longest GET: one GET fills one {@code byte[]}, so {@code maxRequestSize *
   * requestToleranceRatio} may not exceed what an array can hold.
   */
  public static final long MAX_REQUEST_SIZE = Integer.MAX_VALUE - 8;

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  private static final long GIB = 1024 * MIB;

  private static final long DEFAULT_MEMORY_LIMIT =
      Math.min(GIB, Runtime.getRuntime().maxMemory() / 4);

  /**
   * The system property that sizes the one budget of block memory every factory of the JVM shares
   * (see {@link #jvmBudget()}); not a key of the configuration, which is per factory.
   */
  public static final Setting<Long> JVM_MEMORY_LIMIT =
      Setting.size(
              "seekwell.memory.limit",
              DEFAULT_MEMORY_LIMIT,
              1,
              "hard bound on the block memory of every factory of the JVM together")
          .describingDefault(
              "1 GiB, or a quarter of the maximum heap if smaller; in Spark at most half of its"
                  + " user memory");

  static final Setting<Long> MAX_MEMORY_LIMIT =
      Setting.size(
              "max.memory.limit",
              DEFAULT_MEMORY_LIMIT,
              1,
              "hard bound on block memory per factory: bytes cached plus bytes of GETs in flight"
                  + " never exceed it, nor, with every other factory's, `seekwell.memory.limit`")
          .describingDefault(
              "1 GiB, or a quarter of the maximum heap if smaller; at most the JVM's budget");
  static final Setting<Long> READ_AHEAD_BYTES =
      Setting.size(
          "readaheadbytes",
          64 * KIB,
          1,
          "a read of missing bytes is widened to at least this many bytes");
  static final Setting<Long> MISS_MAX_BYTES =
      Setting.size(
          "miss.max.bytes",
          256 * KIB,
          1,
          "a read's own miss is widened up to this many bytes, as many as the link carries in a"
              + " tenth of its time to first byte, while at least one widened miss in eight is"
              + " later read; at most `readaheadbytes` turns this off");
  static final Setting<Long> TARGET_REQUEST_SIZE =
      Setting.size(
          "target.request.size",
          8 * MIB,
          1,
          MAX_REQUEST_SIZE,
          "the size missing ranges are split into");
  static final Setting<Long> MAX_REQUEST_SIZE_SETTING =
      Setting.size("max.request.size", 32 * MIB, 1, MAX_REQUEST_SIZE, "the largest split size")
          .describingDefault("`32MB`, or `target.request.size` if larger");
  static final Setting<Double> REQUEST_TOLERANCE_RATIO =
      Setting.number(
          "request.tolerance.ratio",
          1.25,
          1.0,
          Double.POSITIVE_INFINITY,
          "a missing range up to the split size × ratio is one GET");
  static final Setting<Integer> METADATA_CACHE_SIZE =
      Setting.count("metadata.cache.size", 10_000, 1, "how many objects' length and ETag are kept");
  static final Setting<Duration> METADATA_CACHE_TTL =
      Setting.positiveDuration(
          "metadata.cache.ttl", Duration.ofMinutes(5), "how long metadata is kept after its HEAD");
  static final Setting<Duration> READ_TIMEOUT =
      Setting.positiveDuration(
          "read.timeout",
          Duration.ofMinutes(2),
          "the longest a read waits for its bytes to arrive");
  static final Setting<Integer> FETCH_THREADS =
      Setting.count(
          "fetch.threads",
          64,
          1,
          "threads that receive GET bodies: the most GETs in flight per factory");
  static final Setting<Long> COALESCE_TOLERANCE =
      Setting.size(
              "request.coalesce.tolerance",
              MIB,
              0,
              "vectored ranges whose gap is at most this are read with one GET")
          .orWord("auto", AUTO_COALESCE);

  /** Every setting of the physical IO layer, under {@link #PREFIX}. */
  public static final SettingGroup SETTINGS =
      SettingGroup.of(
          PREFIX,
          MAX_MEMORY_LIMIT,
          READ_AHEAD_BYTES,
          MISS_MAX_BYTES,
          TARGET_REQUEST_SIZE,
          MAX_REQUEST_SIZE_SETTING,
          REQUEST_TOLERANCE_RATIO,
          METADATA_CACHE_SIZE,
          METADATA_CACHE_TTL,
          READ_TIMEOUT,
          FETCH_THREADS,
          COALESCE_TOLERANCE);

  /** The defaults; the memory limit is 1 GiB or a quarter of the maximum heap, if smaller. */
  public static final PhysicalIOConfiguration DEFAULT =
      new PhysicalIOConfiguration(SETTINGS.defaults());

  private PhysicalIOConfiguration(SettingValues values) {
    super(values);
    checkRequestSizes(values, SETTINGS::fullKey);
  }

  /**
   * Checks what no single setting can: that the largest split size is at least the target, and that
   * neither times the tolerance ratio is longer than an array can hold.
   */
  private static void checkRequestSizes(SettingValues values, Function<Setting<?>, String> key) {
    long target = values.get(TARGET_REQUEST_SIZE);
    long max = values.get(MAX_REQUEST_SIZE_SETTING);
    double ratio = values.get(REQUEST_TOLERANCE_RATIO);
    if (target * ratio > MAX_REQUEST_SIZE) {
      throw tooLong(key.apply(TARGET_REQUEST_SIZE), key.apply(REQUEST_TOLERANCE_RATIO));
    }
    if (max < target) {
      throw new IllegalArgumentException(
          "'"
              + key.apply(MAX_REQUEST_SIZE_SETTING)
              + "' must be at least '"
              + key.apply(TARGET_REQUEST_SIZE)
              + "' ("
              + target
              + " bytes), was "
              + max);
    }
    if (max * ratio > MAX_REQUEST_SIZE) {
      throw tooLong(key.apply(MAX_REQUEST_SIZE_SETTING), key.apply(REQUEST_TOLERANCE_RATIO));
    }
  }

  private static IllegalArgumentException tooLong(String sizeKey, String ratioKey) {
    return new IllegalArgumentException(
        "'"
            + sizeKey
            + "' times '"
            + ratioKey
            + "' is the longest GET, and one GET fills one array: it must be at most "
            + MAX_REQUEST_SIZE
            + " bytes");
  }

  /**
   * Reads the settings under {@code physicalio.}; unset keys get defaults. An unset {@code
   * max.request.size} is its default (lowered so that it times the ratio fits an array) or the
   * target size, whichever is larger.
   *
   * @throws IllegalArgumentException naming the key, for a value that cannot be used
   */
  public static PhysicalIOConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    SettingValues values = SETTINGS.read(configuration);
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    if (config.getString(MAX_REQUEST_SIZE_SETTING.key()).isEmpty()) {
      long target = values.get(TARGET_REQUEST_SIZE);
      long fitting = (long) (MAX_REQUEST_SIZE / values.get(REQUEST_TOLERANCE_RATIO));
      long defaultMax =
          Math.max(target, Math.min(MAX_REQUEST_SIZE_SETTING.defaultValue(), fitting));
      values = values.with(MAX_REQUEST_SIZE_SETTING, defaultMax);
    }
    checkRequestSizes(values, setting -> config.fullKey(setting.key()));
    return new PhysicalIOConfiguration(values);
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return DEFAULT.toBuilder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(values());
  }

  /**
   * The bytes of block memory every factory of this JVM may hold together, cached or in flight, as
   * a budget sized now would be (the JVM's is sized once, by its first factory: {@link
   * io.seekwell.physical.PhysicalIO#jvmBudget()}): the system property {@code
   * seekwell.memory.limit} if set; else 1 GiB or a quarter of the maximum heap if smaller, and, in
   * a Spark executor or driver, at most half of the heap Spark leaves outside its memory manager
   * (its user memory: the heap less 300 MiB, times one minus {@code spark.memory.fraction}), but at
   * least 16 MiB.
   *
   * @throws IllegalArgumentException naming the property if its value is not a positive size
   */
  public static JvmBudget jvmBudget() {
    String value = System.getProperty(JVM_MEMORY_LIMIT.key());
    if (value != null) {
      return new JvmBudget(
          JVM_MEMORY_LIMIT.read(ConnectorConfiguration.of(Map.of(JVM_MEMORY_LIMIT.key(), value))),
          "set");
    }
    return EngineMemory.ofThisJvm(Runtime.getRuntime().maxMemory())
        .filter(engine -> engine.bytes() < DEFAULT_MEMORY_LIMIT)
        .orElse(new JvmBudget(DEFAULT_MEMORY_LIMIT, "1 GiB or a quarter of the heap"));
  }

  /**
   * The bytes of block memory every factory of a JVM may hold together, and what they were sized
   * from, as the startup line says it.
   */
  public record JvmBudget(long bytes, String source) {}

  /**
   * This factory's bytes held plus bytes in flight never exceed this; every factory's together
   * never exceed {@link #jvmBudget()}.
   */
  public long maxMemoryLimit() {
    return get(MAX_MEMORY_LIMIT);
  }

  /**
   * Objects longer than this, a quarter of {@link #maxMemoryLimit()}, are scanned: bytes read ahead
   * of a lone reader leave memory once read through, and the object is never fetched whole at open.
   */
  public long scanLength() {
    return maxMemoryLimit() / 4;
  }

  /** A missed read is widened to at least this many bytes. */
  public long readAheadBytes() {
    return get(READ_AHEAD_BYTES);
  }

  /**
   * A read's own miss is widened up to this many bytes (never below {@link #readAheadBytes()}): as
   * many as the link carries in a tenth of its measured time to first byte.
   */
  public long missMaxBytes() {
    return get(MISS_MAX_BYTES);
  }

  /**
   * Longer GETs are split into parts of about this size, or larger ones when single GETs transfer
   * fast (see {@link #maxRequestSize()}).
   */
  public long targetRequestSize() {
    return get(TARGET_REQUEST_SIZE);
  }

  /**
   * The largest size GETs are split into on a fast link, at least {@link #targetRequestSize()};
   * equal to it, GETs are always split by the target size.
   */
  public long maxRequestSize() {
    return get(MAX_REQUEST_SIZE_SETTING);
  }

  /** A GET up to its split size times this ratio is not split. */
  public double requestToleranceRatio() {
    return get(REQUEST_TOLERANCE_RATIO);
  }

  /** How many objects' metadata is kept. */
  public int metadataCacheSize() {
    return get(METADATA_CACHE_SIZE);
  }

  /** How long metadata is kept after it was fetched. */
  public Duration metadataCacheTtl() {
    return get(METADATA_CACHE_TTL);
  }

  /** The longest a read waits for bytes to arrive. */
  public Duration readTimeout() {
    return get(READ_TIMEOUT);
  }

  /** Threads that receive GET bodies, the most GETs in flight per factory. */
  public int fetchThreads() {
    return get(FETCH_THREADS);
  }

  /**
   * Vectored ranges whose gap is at most this are read with one GET; {@link #AUTO_COALESCE} derives
   * it from observed time to first byte and throughput.
   */
  public long coalesceTolerance() {
    return get(COALESCE_TOLERANCE);
  }

  /**
   * The largest size GETs are split into: {@link #maxRequestSize()}, but no more than a sixteenth
   * of the memory limit (a GET's array is part of the bound), and never below the target size.
   */
  public long largestRequestSize() {
    return Math.max(targetRequestSize(), Math.min(maxRequestSize(), maxMemoryLimit() / 16));
  }

  /** These settings with another memory limit. */
  public PhysicalIOConfiguration withMaxMemoryLimit(long bytes) {
    return toBuilder().maxMemoryLimit(bytes).build();
  }

  /**
   * Builds {@link PhysicalIOConfiguration}s; each method sets the setting of the same name, and
   * refuses a value out of its range naming the key. Not thread-safe.
   */
  public static final class Builder extends DeclaredConfiguration.Builder<Builder> {

    private Builder(SettingValues values) {
      super(values);
    }

    /** See {@link PhysicalIOConfiguration#maxMemoryLimit()}. */
    public Builder maxMemoryLimit(long bytes) {
      return set(MAX_MEMORY_LIMIT, bytes);
    }

    /** See {@link PhysicalIOConfiguration#readAheadBytes()}. */
    public Builder readAheadBytes(long bytes) {
      return set(READ_AHEAD_BYTES, bytes);
    }

    /** See {@link PhysicalIOConfiguration#missMaxBytes()}. */
    public Builder missMaxBytes(long bytes) {
      return set(MISS_MAX_BYTES, bytes);
    }

    /** See {@link PhysicalIOConfiguration#targetRequestSize()}. */
    public Builder targetRequestSize(long bytes) {
      return set(TARGET_REQUEST_SIZE, bytes);
    }

    /** See {@link PhysicalIOConfiguration#maxRequestSize()}. */
    public Builder maxRequestSize(long bytes) {
      return set(MAX_REQUEST_SIZE_SETTING, bytes);
    }

    /** See {@link PhysicalIOConfiguration#requestToleranceRatio()}. */
    public Builder requestToleranceRatio(double ratio) {
      return set(REQUEST_TOLERANCE_RATIO, ratio);
    }

    /** See {@link PhysicalIOConfiguration#metadataCacheSize()}. */
    public Builder metadataCacheSize(int objects) {
      return set(METADATA_CACHE_SIZE, objects);
    }

    /** See {@link PhysicalIOConfiguration#metadataCacheTtl()}. */
    public Builder metadataCacheTtl(Duration ttl) {
      return set(METADATA_CACHE_TTL, ttl);
    }

    /** See {@link PhysicalIOConfiguration#readTimeout()}. */
    public Builder readTimeout(Duration timeout) {
      return set(READ_TIMEOUT, timeout);
    }

    /** See {@link PhysicalIOConfiguration#fetchThreads()}. */
    public Builder fetchThreads(int threads) {
      return set(FETCH_THREADS, threads);
    }

    /** See {@link PhysicalIOConfiguration#coalesceTolerance()}. */
    public Builder coalesceTolerance(long bytes) {
      return set(COALESCE_TOLERANCE, bytes);
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException when the request sizes do not fit together
     */
    public PhysicalIOConfiguration build() {
      return new PhysicalIOConfiguration(values());
    }
  }
}
