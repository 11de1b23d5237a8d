package io.seekwell;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import io.seekwell.common.object.ObjectLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The local disk tier below the block cache: where it keeps bytes, how many, and which objects
 * besides those a caller declares immutable may use it. Off unless a directory is set. Immutable
 * and thread-safe. Each key is declared once below ({@link #SETTINGS}) and listed in {@code
 * docs/configuration.md}.
 *
 * @param directory where cached bytes are kept; empty for no disk tier
 * @param maxSize the most bytes of cached objects kept in the directory as a whole: each of its
 *     slots keeps within an equal share of it ({@link #slotSize()})
 * @param maxSlots how many slots the directory holds at most: each opener (a JVM, or a {@link
 *     DiskCacheScope} in one) that finds the lower ones taken, or unusable, uses the next
 * @param immutablePrefixes locations ({@code s3://bucket/prefix}) under which every object is
 *     written once and never changed, so that its bytes may be cached on disk without being
 *     declared immutable by each open
 * @param scans whether bytes a stream scans (reads once, ahead of its reader) of objects longer
 *     than a quarter of the memory limit are written to disk too; off by default, as the memory
 *     tier drops them once read
 */
public record DiskCacheConfiguration(
    Optional<Path> directory,
    long maxSize,
    int maxSlots,
    List<String> immutablePrefixes,
    boolean scans) {

  /** The settings' part of the key space. */
  public static final String PREFIX = "physicalio.disk.cache.";

  /** The smallest bound: a few of the tier's 64 KiB granules must fit. */
  public static final long MIN_SIZE = 1024 * 1024;

  private static final String S3 = "s3://";

  private static final Setting<Optional<String>> DIRECTORY =
      Setting.text(
              "dir",
              "the local directory where bytes of immutable objects are kept across streams,"
                  + " factories and restarts")
          .describingDefault("none (off)");
  private static final Setting<Long> MAX_SIZE =
      Setting.size(
          "max.size",
          10L << 30,
          MIN_SIZE,
          "the most bytes of objects kept in the directory as a whole; each of its slots keeps"
              + " within `max.size / max.slots`");
  private static final Setting<Integer> MAX_SLOTS =
      Setting.count(
          "max.slots",
          4,
          1,
          "how many slots the directory holds, each used by one JVM (or one scope of factories in"
              + " a JVM) at a time and given `max.size / max.slots` bytes; a single-JVM deployment"
              + " may set 1 to give its cache the whole bound, Spark the driver and executors that"
              + " share a host");
  private static final Setting<Boolean> SCANS =
      Setting.flag(
          "scans",
          false,
          "whether bytes read ahead for a stream that scans an object longer than a quarter of"
              + " `physicalio.max.memory.limit`");
  private static final Setting<List<String>> IMMUTABLE_PREFIXES =
      Setting.list(
              "immutable.prefixes",
              List.of(),
              "every object under these prefixes is taken as written once and never changed")
          .allowing(
              prefixes ->
                  prefixes.stream()
                      .allMatch(prefix -> prefix.startsWith(S3) && prefix.length() > S3.length()),
              "s3://bucket/prefix locations")
          .describingDefault("none");

  /** Every setting of the disk tier, under {@link #PREFIX}. */
  public static final SettingGroup SETTINGS =
      SettingGroup.of(PREFIX, DIRECTORY, MAX_SIZE, MAX_SLOTS, SCANS, IMMUTABLE_PREFIXES);

  /** No disk tier. */
  public static final DiskCacheConfiguration OFF =
      new DiskCacheConfiguration(
          Optional.empty(),
          MAX_SIZE.defaultValue(),
          MAX_SLOTS.defaultValue(),
          IMMUTABLE_PREFIXES.defaultValue(),
          SCANS.defaultValue());

  /** Validates the settings. */
  public DiskCacheConfiguration {
    Objects.requireNonNull(directory, "directory");
    SETTINGS.check(MAX_SIZE, maxSize);
    SETTINGS.check(MAX_SLOTS, maxSlots);
    if (maxSize / maxSlots < MIN_SIZE) {
      throw new IllegalArgumentException(
          "'"
              + PREFIX
              + MAX_SIZE.key()
              + "' ("
              + maxSize
              + " bytes) divided among '"
              + PREFIX
              + MAX_SLOTS.key()
              + "' ("
              + maxSlots
              + ") leaves "
              + maxSize / maxSlots
              + " bytes per slot, fewer than the "
              + MIN_SIZE
              + " a slot needs: raise the first or lower the second");
    }
    immutablePrefixes = SETTINGS.check(IMMUTABLE_PREFIXES, List.copyOf(immutablePrefixes));
  }

  /**
   * A disk tier in {@code directory} keeping at most {@code maxSize} bytes there, in the default
   * number of slots.
   */
  public static DiskCacheConfiguration in(Path directory, long maxSize) {
    return in(directory, maxSize, MAX_SLOTS.defaultValue());
  }

  /** A disk tier in {@code directory} keeping at most {@code maxSize} bytes in {@code slots}. */
  public static DiskCacheConfiguration in(Path directory, long maxSize, int slots) {
    return new DiskCacheConfiguration(Optional.of(directory), maxSize, slots, List.of(), false);
  }

  /** The most bytes one slot of the directory keeps: its share of {@link #maxSize}. */
  public long slotSize() {
    return maxSize / maxSlots;
  }

  /** These settings, with at most {@code slots} slots in the directory. */
  public DiskCacheConfiguration withMaxSlots(int slots) {
    return new DiskCacheConfiguration(directory, maxSize, slots, immutablePrefixes, scans);
  }

  /** These settings, with every object under {@code prefixes} taken as immutable. */
  public DiskCacheConfiguration withImmutablePrefixes(List<String> prefixes) {
    return new DiskCacheConfiguration(directory, maxSize, maxSlots, prefixes, scans);
  }

  /** These settings, writing scanned bytes of large objects to disk too, or not. */
  public DiskCacheConfiguration withScans(boolean written) {
    return new DiskCacheConfiguration(directory, maxSize, maxSlots, immutablePrefixes, written);
  }

  /** Reads the settings under {@code physicalio.disk.cache.}; unset keys get defaults. */
  public static DiskCacheConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    return new DiskCacheConfiguration(
        DIRECTORY.read(config).map(Path::of),
        MAX_SIZE.read(config),
        MAX_SLOTS.read(config),
        IMMUTABLE_PREFIXES.read(config),
        SCANS.read(config));
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
