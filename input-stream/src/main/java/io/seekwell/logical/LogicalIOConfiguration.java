package io.seekwell.logical;

import io.seekwell.common.config.ConnectorConfiguration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the logical IO layer reads ahead. Immutable and thread-safe. Every key and default is listed
 * in {@code docs/configuration.md}.
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

  /** The defaults. */
  public static final LogicalIOConfiguration DEFAULT =
      new LogicalIOConfiguration(
          true, 8 * MIB, true, 2 * MIB, 128 * MIB, List.of(".csv", ".json", ".jsonl", ".txt"));

  /** No read-ahead of any kind: every GET is one a read asked for. */
  public static final LogicalIOConfiguration OFF =
      new LogicalIOConfiguration(false, 0, false, 2 * MIB, 2 * MIB, List.of());

  /** Validates the settings. */
  public LogicalIOConfiguration {
    if (smallObjectThreshold < 0) {
      throw new IllegalArgumentException(
          "smallObjectThreshold must be >= 0, was " + smallObjectThreshold);
    }
    if (sequentialInitialSize < 1 || sequentialMaxSize < sequentialInitialSize) {
      throw new IllegalArgumentException(
          "Sequential prefetch sizes must satisfy 1 <= initial <= max, were "
              + sequentialInitialSize
              + " and "
              + sequentialMaxSize);
    }
    sequentialSuffixes = sequentialSuffixes.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
  }

  /** Reads the settings under {@code logicalio.}; unset keys get defaults. */
  public static LogicalIOConfiguration fromConfiguration(ConnectorConfiguration configuration) {
    ConnectorConfiguration config = configuration.narrow(PREFIX);
    long initial =
        config.getSize("sequentialprefetch.initial.size", DEFAULT.sequentialInitialSize, 1);
    long max = config.getSize("sequentialprefetch.max.size", DEFAULT.sequentialMaxSize, initial);
    return new LogicalIOConfiguration(
        config.getBoolean("small.object.prefetch", DEFAULT.smallObjectPrefetch),
        config.getSize("small.object.size.threshold", DEFAULT.smallObjectThreshold, 0),
        config.getBoolean("sequentialprefetch.enabled", DEFAULT.sequentialPrefetch),
        initial,
        max,
        config
            .getString("sequential.suffixes")
            .map(LogicalIOConfiguration::suffixes)
            .orElse(DEFAULT.sequentialSuffixes));
  }

  /** A comma-separated list of key suffixes, such as {@code .csv,.json}. */
  static List<String> suffixes(String text) {
    return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }
}
