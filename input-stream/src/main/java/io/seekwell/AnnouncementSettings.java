package io.seekwell;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import io.seekwell.logical.LogicalIOConfiguration;

/**
 * How far ahead announced objects are prefetched ({@code logicalio.announced.}, each key declared
 * once in {@link #SETTINGS}): at most {@code maxFiles} objects and {@code maxBytes} (at most a
 * quarter of the memory limit) ahead of the last one opened; objects up to {@code smallObjectSize}
 * (the small-object threshold, at most the scan length) whole, larger ones their last {@code
 * tailSize} bytes. Immutable.
 */
record AnnouncementSettings(int maxFiles, long maxBytes, long tailSize, long smallObjectSize) {

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  private static final Setting<Integer> FILES =
      Setting.count(
          "prefetch.files",
          16,
          0,
          "objects of an [announcement](streams.md#announced-objects) prefetched ahead of the last"
              + " one opened, at most");
  private static final Setting<Long> SIZE =
      Setting.size(
          "prefetch.size",
          64 * MIB,
          0,
          "bytes of announced objects prefetched ahead of the last one opened, at most");
  private static final Setting<Long> TAIL_SIZE =
      Setting.size(
              "prefetch.tail.size",
              MIB + 32 * KIB,
              1,
              "of an announced object larger than `logicalio.small.object.size.threshold` (or than"
                  + " a quarter of `physicalio.max.memory.limit`), the end prefetched")
          .describingDefault("1 MiB + 32 KiB");

  /** The settings of announcements, under {@code logicalio.announced.}. */
  static final SettingGroup SETTINGS =
      SettingGroup.of(LogicalIOConfiguration.PREFIX + "announced.", FILES, SIZE, TAIL_SIZE);

  static AnnouncementSettings of(S3SeekableInputStreamConfiguration configuration) {
    ConnectorConfiguration keys = configuration.rawConfiguration().narrow(SETTINGS.prefix());
    long memoryLimit = configuration.physicalIO().maxMemoryLimit();
    return new AnnouncementSettings(
        FILES.read(keys),
        Math.min(SIZE.read(keys), memoryLimit / 4),
        TAIL_SIZE.read(keys),
        ReadStrategySelector.smallObjectLength(configuration));
  }
}
