package io.seekwell.logical;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import java.util.List;
import java.util.Locale;

/**
 * What the logical IO layer reads ahead. Immutable and thread-safe. Each key is declared once below
 * ({@link #SETTINGS}) and listed in {@code docs/configuration.md}.
 *
 * @param smallObjectPrefetch whether objects up to {@code smallObjectThreshold} are fetched whole
 * @param smallObjectThreshold objects up to this size are fetched whole with one GET at open
 * @param sequentialPrefetch whether sequential reads get a sliding read-ahead window
 * @param sequentialInitialSize the window's first size
 * @param sequentialMaxSize the most bytes the window asks for ahead of the reader
 * @param sequentialSuffixes keys ending with one of these are read sequentially (any case)
 */
public record LogicalIOConfiguration(
    boolean smallObjectPrefetch,
    long smallObjectThreshold,
    boolean sequentialPrefetch,
    long sequentialInitialSize,
    long sequentialMaxSize,
    List<String> sequentialSuffixes) {

  /** The settings' part of the key space. */
  public static final String PREFIX = "logicalio.";

  private static final long MIB = 1024 * 1024;

  private static final Setting<Boolean> SMALL_OBJECT_PREFETCH =
      Setting.flag(
          "small.object.prefetch",
          true,
          "fetch objects up to the threshold whole, with one GET, when a stream opens");
  private static final Setting<Long> SMALL_OBJECT_THRESHOLD =
      Setting.size(
          "small.object.size.threshold",
          8 * MIB,
          0,
          "the largest object fetched whole; never more than a quarter of"
              + " `physicalio.max.memory.limit`, past which an object is scanned and its bytes"
              + " would not stay in memory");
  private static final Setting<Boolean> SEQUENTIAL_PREFETCH =
      Setting.flag(
          "sequentialprefetch.enabled", true, "give sequential reads a sliding read-ahead window");
  private static final Setting<Long> SEQUENTIAL_INITIAL_SIZE =
      Setting.size(
          "sequentialprefetch.initial.size",
          2 * MIB,
          1,
          "the window's first size, and its first request");
  private static final Setting<Long> SEQUENTIAL_MAX_SIZE =
      Setting.size(
          "sequentialprefetch.max.size",
          128 * MIB,
          1,
          "the most bytes the window asks for ahead of the reader");
  private static final Setting<List<String>> SEQUENTIAL_SUFFIXES =
      Setting.list(
          "sequential.suffixes",
          List.of(".csv", ".json", ".jsonl", ".txt"),
          "keys ending with one of these (any case, matched literally) are read sequentially from"
              + " their first read");

  /**
   * The core settings under {@link #PREFIX}; format plug-ins declare their own under {@code
   * logicalio.NAME.}.
   */
  public static final SettingGroup SETTINGS =
      SettingGroup.of(
          PREFIX,
          SMALL_OBJECT_PREFETCH,
          SMALL_OBJECT_THRESHOLD,
          SEQUENTIAL_PREFETCH,
          SEQUENTIAL_INITIAL_SIZE,
          SEQUENTIAL_MAX_SIZE,
          SEQUENTIAL_SUFFIXES);

  /** The defaults. */
  public static final LogicalIOConfiguration DEFAULT =
      new LogicalIOConfiguration(
          SMALL_OBJECT_PREFETCH.defaultValue(),
          SMALL_OBJECT_THRESHOLD.defaultValue(),
          SEQUENTIAL_PREFETCH.defaultValue(),
          SEQUENTIAL_INITIAL_SIZE.defaultValue(),
          SEQUENTIAL_MAX_SIZE.defaultValue(),
          SEQUENTIAL_SUFFIXES.defaultValue());

  /** No read-ahead of any kind: every GET is one a read asked for. */
  public static final LogicalIOConfiguration OFF =
      new LogicalIOConfiguration(false, 0, false, 2 * MIB, 2 * MIB, List.of());

  /** Validates the settings. */
  public LogicalIOConfiguration {
    SETTINGS.check(SMALL_OBJECT_THRESHOLD, smallObjectThreshold);
    SETTINGS.check(SEQUENTIAL_INITIAL_SIZE, sequentialInitialSize);
    SETTINGS.check(atLeast(sequentialInitialSize), sequentialMaxSize);
    sequentialSuffixes = sequentialSuffixes.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
  }

  /** The window's largest size, which may not be below its first size. */
  private static Setting<Long> atLeast(long initialSize) {
    return SEQUENTIAL_MAX_SIZE.allowing(max -> max >= initialSize, "at least " + initialSize);
  }

  /** Reads the settings under {@code logicalio.}; unset keys get defaults. */
  public static LogicalIOConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    long initial = SEQUENTIAL_INITIAL_SIZE.read(config);
    return new LogicalIOConfiguration(
        SMALL_OBJECT_PREFETCH.read(config),
        SMALL_OBJECT_THRESHOLD.read(config),
        SEQUENTIAL_PREFETCH.read(config),
        initial,
        atLeast(initial).read(config),
        SEQUENTIAL_SUFFIXES.read(config));
  }
}
