package io.seekwell;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.logical.LogicalIOConfiguration;

/**
 * How far ahead announced objects are prefetched ({@code logicalio.announced.}): at most {@code
 * maxFiles} objects ({@code prefetch.files}, 16) and {@code maxBytes} ({@code prefetch.size}, 64
 * MiB, at most a quarter of the memory limit) ahead of the last one opened; objects up to {@code
 * smallObjectSize} (the small-object threshold) whole, larger ones their last {@code tailSize}
 * bytes ({@code prefetch.tail.size}, 1 MiB + 32 KiB, as the Parquet footer prefetch). Immutable.
 */
record AnnouncementSettings(int maxFiles, long maxBytes, long tailSize, long smallObjectSize) {

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  static AnnouncementSettings of(S3SeekableInputStreamConfiguration configuration) {
    ConnectorConfiguration keys =
        configuration.rawConfiguration().narrow(LogicalIOConfiguration.PREFIX + "announced.");
    long memoryLimit = configuration.physicalIO().maxMemoryLimit();
    return new AnnouncementSettings(
        keys.getInt("prefetch.files", 16, 0),
        Math.min(keys.getSize("prefetch.size", 64 * MIB, 0), memoryLimit / 4),
        keys.getSize("prefetch.tail.size", MIB + 32 * KIB, 1),
        configuration.logicalIO().smallObjectThreshold());
  }
}
