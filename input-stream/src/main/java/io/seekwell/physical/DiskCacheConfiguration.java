package io.seekwell.physical;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.object.ObjectLocation;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The local disk tier below the block cache: where it keeps bytes, how many, and which objects
 * besides those a caller declares immutable may use it. Off unless a directory is set. Immutable
 * and thread-safe. Every key is listed in {@code docs/configuration.md}.
 *
 * @param directory where cached bytes are kept; empty for no disk tier
 * @param maxSize the most bytes of cached objects kept in the directory
 * @param immutablePrefixes locations ({@code s3://bucket/prefix}) under which every object is
 *     written once and never changed, so that its bytes may be cached on disk without being
 *     declared immutable by each open
 * @param scans whether bytes a stream scans (reads once, ahead of its reader) of objects longer
 *     than a quarter of the memory limit are written to disk too; off by default, as the memory
 *     tier drops them once read
 */
public record DiskCacheConfiguration(
    Optional<Path> directory, long maxSize, List<String> immutablePrefixes, boolean scans) {

  /** The settings' part of the key space. */
  public static final String PREFIX = "physicalio.disk.cache.";

  private static final String PREFIXES_KEY = "immutable.prefixes";

  /** The smallest bound: a few of the tier's 64 KiB granules must fit. */
  public static final long MIN_SIZE = 1024 * 1024;

  /** No disk tier. */
  public static final DiskCacheConfiguration OFF =
      new DiskCacheConfiguration(Optional.empty(), 10L << 30, List.of(), false);

  /** Validates the settings. */
  public DiskCacheConfiguration {
    Objects.requireNonNull(directory, "directory");
    immutablePrefixes = List.copyOf(immutablePrefixes);
    if (maxSize < MIN_SIZE) {
      throw new IllegalArgumentException(
          "'" + PREFIX + "max.size' must be at least " + MIN_SIZE + " bytes, was " + maxSize);
    }
    immutablePrefixes.forEach(prefix -> checkPrefix(prefix, PREFIX + PREFIXES_KEY));
  }

  private static void checkPrefix(String prefix, String key) {
    if (!prefix.startsWith("s3://") || prefix.length() <= "s3://".length()) {
      throw new IllegalArgumentException(
          "'" + key + "' takes s3://bucket/prefix locations, was '" + prefix + "'");
    }
  }

  /** A disk tier in {@code directory} keeping at most {@code maxSize} bytes. */
  public static DiskCacheConfiguration in(Path directory, long maxSize) {
    return new DiskCacheConfiguration(Optional.of(directory), maxSize, List.of(), false);
  }

  /** These settings, with every object under {@code prefixes} taken as immutable. */
  public DiskCacheConfiguration withImmutablePrefixes(List<String> prefixes) {
    return new DiskCacheConfiguration(directory, maxSize, prefixes, scans);
  }

  /** These settings, writing scanned bytes of large objects to disk too, or not. */
  public DiskCacheConfiguration withScans(boolean written) {
    return new DiskCacheConfiguration(directory, maxSize, immutablePrefixes, written);
  }

  /** Reads the settings under {@code physicalio.disk.cache.}; unset keys get defaults. */
  public static DiskCacheConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    Optional<Path> directory =
        config.getString("dir").map(String::trim).filter(dir -> !dir.isEmpty()).map(Path::of);
    long maxSize = config.getSize("max.size", OFF.maxSize, MIN_SIZE);
    List<String> prefixes =
        config
            .getString(PREFIXES_KEY)
            .map(
                list ->
                    Arrays.stream(list.split(","))
                        .map(String::trim)
                        .filter(prefix -> !prefix.isEmpty())
                        .toList())
            .orElse(List.of());
    prefixes.forEach(prefix -> checkPrefix(prefix, config.fullKey(PREFIXES_KEY)));
    return new DiskCacheConfiguration(
        directory, maxSize, prefixes, config.getBoolean("scans", OFF.scans));
  }

  /** Whether a disk tier is configured. */
  public boolean isEnabled() {
    return directory.isPresent();
  }

  /** Whether {@code location} lies under one of the immutable prefixes. */
  public boolean declaresImmutable(ObjectLocation location) {
    if (immutablePrefixes.isEmpty()) {
      return false;
    }
    String uri = location.toString();
    return immutablePrefixes.stream().anyMatch(uri::startsWith);
  }
}
