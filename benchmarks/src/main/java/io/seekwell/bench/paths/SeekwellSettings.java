package io.seekwell.bench.paths;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.bench.Options;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Seekwell's settings as the benchmarks give them to its read paths (its configuration keys, from
 * {@code --seekwell key=value,…}), and the check that a path read with the disk tier they turn on.
 */
public final class SeekwellSettings {

  /** The setting that turns the disk tier on: its directory. */
  public static final String DISK_DIRECTORY = "physicalio.disk.cache.dir";

  private SeekwellSettings() {}

  /**
   * The Seekwell settings of {@code --seekwell key=value,…}, checked: an unknown or malformed
   * setting fails the run before anything is measured.
   */
  public static Map<String, String> of(Options options) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String pair : options.list("seekwell", "")) {
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("Expected key=value in --seekwell, got: " + pair);
      }
      settings.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
    }
    configuration(settings);
    return settings;
  }

  /** Seekwell's configuration of {@code settings}. */
  public static S3SeekableInputStreamConfiguration configuration(Map<String, String> settings) {
    return S3SeekableInputStreamConfiguration.fromConfiguration(
        ConnectorConfiguration.of(settings));
  }

  /**
   * Fails the run if {@code path}'s factory read without its disk tier (its directory could not be
   * used: see the warning in the log), which would measure the store instead.
   */
  public static void requireDiskTier(String path, MetricsSnapshot metrics) {
    if (metrics.get(Metric.DISK_UNAVAILABLE) > 0) {
      throw new IllegalStateException(
          path + ": the disk tier's directory could not be used, so the run would not measure it");
    }
  }
}
