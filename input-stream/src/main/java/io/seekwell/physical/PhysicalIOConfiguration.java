package io.seekwell.physical;

import io.seekwell.common.config.ConnectorConfiguration;
import java.time.Duration;

/**
 * How the physical IO layer caches and shapes requests. Immutable and thread-safe. Every key and
 * default is listed in {@code docs/configuration.md}.
 *
 * @param maxMemoryLimit bytes held plus bytes in flight never exceed this
 * @param readAheadBytes a missed read is widened to at least this many bytes
 * @param targetRequestSize longer GETs are split into parts of about this size, or larger ones when
 *     single GETs transfer fast (see {@code maxRequestSize})
 * @param maxRequestSize the largest size GETs are split into on a fast link, at least {@code
 *     targetRequestSize}; equal to it, GETs are always split by the target size
 * @param requestToleranceRatio a GET up to its split size times this ratio is not split
 * @param metadataCacheSize how many objects' metadata is kept
 * @param metadataCacheTtl how long metadata is kept after it was fetched
 * @param readTimeout the longest a read waits for bytes to arrive
 * @param fetchThreads threads that receive GET bodies, the most GETs in flight per factory
 * @param coalesceTolerance vectored ranges whose gap is at most this are read with one GET; {@link
 *     #AUTO_COALESCE} derives it from observed time to first byte and throughput
 */
public record PhysicalIOConfiguration(
    long maxMemoryLimit,
    long readAheadBytes,
    long targetRequestSize,
    long maxRequestSize,
    double requestToleranceRatio,
    int metadataCacheSize,
    Duration metadataCacheTtl,
    Duration readTimeout,
    int fetchThreads,
    long coalesceTolerance) {

  /** The settings' part of the key space. */
  public static final String PREFIX = "physicalio.";

  /** The value of {@code coalesceTolerance} that means: measure it. */
  public static final long AUTO_COALESCE = -1;

  /**
   * The longest GET: one GET fills one {@code byte[]}, so {@code maxRequestSize *
   * requestToleranceRatio} may not exceed what an array can hold.
   */
  public static final long MAX_REQUEST_SIZE = Integer.MAX_VALUE - 8;

  private static final String TARGET_REQUEST_SIZE_KEY = "target.request.size";
  private static final String MAX_REQUEST_SIZE_KEY = "max.request.size";
  private static final String TOLERANCE_RATIO_KEY = "request.tolerance.ratio";

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  private static final long GIB = 1024 * MIB;

  /** The defaults; the memory limit is 1 GiB or a quarter of the maximum heap, if smaller. */
  public static final PhysicalIOConfiguration DEFAULT =
      new PhysicalIOConfiguration(
          Math.min(GIB, Runtime.getRuntime().maxMemory() / 4),
          64 * KIB,
          8 * MIB,
          32 * MIB,
          1.25,
          10_000,
          Duration.ofMinutes(5),
          Duration.ofMinutes(2),
          64,
          1024 * KIB);

  /** Validates the settings. */
  public PhysicalIOConfiguration {
    requireAtLeast("maxMemoryLimit", maxMemoryLimit, 1);
    requireAtLeast("readAheadBytes", readAheadBytes, 1);
    requireAtLeast("targetRequestSize", targetRequestSize, 1);
    requireAtLeast("maxRequestSize", maxRequestSize, targetRequestSize);
    requireAtLeast("metadataCacheSize", metadataCacheSize, 1);
    requireAtLeast("fetchThreads", fetchThreads, 1);
    requireAtLeast("coalesceTolerance", coalesceTolerance, AUTO_COALESCE);
    if (!(requestToleranceRatio >= 1.0)) {
      throw new IllegalArgumentException(
          "requestToleranceRatio must be >= 1.0, was " + requestToleranceRatio);
    }
    requirePositive("metadataCacheTtl", metadataCacheTtl);
    requirePositive("readTimeout", readTimeout);
    if (longestRequest(maxRequestSize, requestToleranceRatio) > MAX_REQUEST_SIZE) {
      throw new IllegalArgumentException(
          tooLong(PREFIX + MAX_REQUEST_SIZE_KEY, PREFIX + TOLERANCE_RATIO_KEY));
    }
  }

  private static double longestRequest(long requestSize, double requestToleranceRatio) {
    return requestSize * requestToleranceRatio;
  }

  private static String tooLong(String sizeKey, String ratioKey) {
    return "'"
        + sizeKey
        + "' times '"
        + ratioKey
        + "' is the longest GET, and one GET fills one array: it must be at most "
        + MAX_REQUEST_SIZE
        + " bytes";
  }

  /**
   * Reads the settings under {@code physicalio.}; unset keys get defaults. An unset {@code
   * max.request.size} is its default (lowered so that it times the ratio fits an array) or the
   * target size, whichever is larger.
   */
  public static PhysicalIOConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    long targetRequestSize =
        config.getSize(TARGET_REQUEST_SIZE_KEY, DEFAULT.targetRequestSize, 1, MAX_REQUEST_SIZE);
    double toleranceRatio =
        config.getDouble(TOLERANCE_RATIO_KEY, DEFAULT.requestToleranceRatio, 1.0);
    if (longestRequest(targetRequestSize, toleranceRatio) > MAX_REQUEST_SIZE) {
      throw new IllegalArgumentException(
          tooLong(config.fullKey(TARGET_REQUEST_SIZE_KEY), config.fullKey(TOLERANCE_RATIO_KEY)));
    }
    long defaultMax =
        Math.max(
            targetRequestSize,
            Math.min(DEFAULT.maxRequestSize, (long) (MAX_REQUEST_SIZE / toleranceRatio)));
    long maxRequestSize = config.getSize(MAX_REQUEST_SIZE_KEY, defaultMax, 1, MAX_REQUEST_SIZE);
    if (maxRequestSize < targetRequestSize) {
      throw new IllegalArgumentException(
          "'"
              + config.fullKey(MAX_REQUEST_SIZE_KEY)
              + "' must be at least '"
              + config.fullKey(TARGET_REQUEST_SIZE_KEY)
              + "' ("
              + targetRequestSize
              + " bytes), was "
              + maxRequestSize);
    }
    if (longestRequest(maxRequestSize, toleranceRatio) > MAX_REQUEST_SIZE) {
      throw new IllegalArgumentException(
          tooLong(config.fullKey(MAX_REQUEST_SIZE_KEY), config.fullKey(TOLERANCE_RATIO_KEY)));
    }
    return new PhysicalIOConfiguration(
        config.getSize("max.memory.limit", DEFAULT.maxMemoryLimit, 1),
        config.getSize("readaheadbytes", DEFAULT.readAheadBytes, 1),
        targetRequestSize,
        maxRequestSize,
        toleranceRatio,
        config.getInt("metadata.cache.size", DEFAULT.metadataCacheSize, 1),
        config.getPositiveDuration("metadata.cache.ttl", DEFAULT.metadataCacheTtl),
        config.getPositiveDuration("read.timeout", DEFAULT.readTimeout),
        config.getInt("fetch.threads", DEFAULT.fetchThreads, 1),
        config.getString("request.coalesce.tolerance").filter("auto"::equalsIgnoreCase).isPresent()
            ? AUTO_COALESCE
            : config.getSize("request.coalesce.tolerance", DEFAULT.coalesceTolerance, 0));
  }

  /**
   * The largest size GETs are split into: {@link #maxRequestSize()}, but no more than a sixteenth
   * of the memory limit (a GET's array is part of the bound), and never below the target size.
   */
  public long largestRequestSize() {
    return Math.max(targetRequestSize, Math.min(maxRequestSize, maxMemoryLimit / 16));
  }

  /** These settings with another memory limit. */
  public PhysicalIOConfiguration withMaxMemoryLimit(long bytes) {
    return new PhysicalIOConfiguration(
        bytes,
        readAheadBytes,
        targetRequestSize,
        maxRequestSize,
        requestToleranceRatio,
        metadataCacheSize,
        metadataCacheTtl,
        readTimeout,
        fetchThreads,
        coalesceTolerance);
  }

  private static void requireAtLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " must be >= " + min + ", was " + value);
    }
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
    }
  }
}
