package io.seekwell.common.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Typed, read-only access to the settings under one key prefix of a string map, as engines hand
 * them over (for example every key under {@code seekwell.}). Immutable and thread-safe: the map is
 * copied on construction.
 *
 * <p>Sizes accept plain bytes or a unit ({@code 64KB}, {@code 8MiB}, {@code 1GB}); decimal and
 * binary units both mean powers of 1024, as is usual for buffer sizes. Durations accept {@code ms},
 * {@code s}, {@code m} and {@code h} ({@code 250ms}, {@code 30s}, {@code 5m}); a plain number means
 * milliseconds. A value that cannot be parsed or is out of range raises an {@link
 * IllegalArgumentException} naming the full key and the rejected value.
 */
public final class ConnectorConfiguration {

  private final String prefix;
  private final Map<String, String> values;

  private ConnectorConfiguration(String prefix, Map<String, String> values) {
    this.prefix = prefix;
    this.values = values;
  }

  /** A configuration over every entry of {@code map}, with no prefix. */
  public static ConnectorConfiguration of(Map<String, String> map) {
    return of(map, "");
  }

  /**
   * A configuration over the entries of {@code map} whose keys start with {@code prefix}. Keys are
   * then looked up without the prefix: with prefix {@code seekwell.}, {@code
   * getSize("physicalio.readaheadbytes", ...)} reads {@code seekwell.physicalio.readaheadbytes}.
   */
  public static ConnectorConfiguration of(Map<String, String> map, String prefix) {
    Objects.requireNonNull(map, "map");
    Objects.requireNonNull(prefix, "prefix");
    Map<String, String> selected = new TreeMap<>();
    map.forEach(
        (key, value) -> {
          if (key != null && value != null && key.startsWith(prefix)) {
            selected.put(key.substring(prefix.length()), value.trim());
          }
        });
    return new ConnectorConfiguration(prefix, Map.copyOf(selected));
  }

  /** An empty configuration: every getter returns its default. */
  public static ConnectorConfiguration empty() {
    return new ConnectorConfiguration("", Map.of());
  }

  /** The settings under {@code subPrefix} of this configuration, with that part removed. */
  public ConnectorConfiguration narrow(String subPrefix) {
    ConnectorConfiguration narrowed = of(values, subPrefix);
    return new ConnectorConfiguration(prefix + subPrefix, narrowed.values);
  }

  /** The full key, prefix included, as the user wrote it. */
  public String fullKey(String key) {
    return prefix + key;
  }

  /** The raw value of {@code key}, if set. */
  public Optional<String> getString(String key) {
    return Optional.ofNullable(values.get(key));
  }

  /** The raw value of {@code key}, or {@code defaultValue}. */
  public String getString(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  /** An integer value. */
  public int getInt(String key, int defaultValue) {
    return get(key, defaultValue, "an integer", Integer::parseInt);
  }

  /** An integer value that must be at least {@code min}. */
  public int getInt(String key, int defaultValue, int min) {
    int value = getInt(key, defaultValue);
    return (int) requireAtLeast(key, value, min);
  }

  /** A long value. */
  public long getLong(String key, long defaultValue) {
    return get(key, defaultValue, "an integer", Long::parseLong);
  }

  /** A decimal number that must be at least {@code min}, such as {@code 1.25}. */
  public double getDouble(String key, double defaultValue, double min) {
    double value = get(key, defaultValue, "a number such as 1.25", Double::parseDouble);
    if (Double.isNaN(value) || Double.isInfinite(value) || value < min) {
      throw invalid(key, values.get(key), "a number of at least " + min);
    }
    return value;
  }

  /** {@code true} or {@code false}, in any case. */
  public boolean getBoolean(String key, boolean defaultValue) {
    return get(key, defaultValue, "true or false", ConnectorConfiguration::parseBoolean);
  }

  /** A size in bytes, such as {@code 65536}, {@code 64KB} or {@code 8MiB}. */
  public long getSize(String key, long defaultBytes) {
    return get(key, defaultBytes, "a size such as 65536, 64KB or 8MiB", Units::parseSize);
  }

  /** A size in bytes that must be at least {@code min}. */
  public long getSize(String key, long defaultBytes, long min) {
    return requireAtLeast(key, getSize(key, defaultBytes), min);
  }

  /** A size in bytes from {@code min} to {@code max}. */
  public long getSize(String key, long defaultBytes, long min, long max) {
    long value = getSize(key, defaultBytes, min);
    if (value > max) {
      throw invalid(key, values.get(key), "at most " + max + " bytes");
    }
    return value;
  }

  /** A duration, such as {@code 250ms}, {@code 30s} or {@code 5m}. */
  public Duration getDuration(String key, Duration defaultValue) {
    return get(key, defaultValue, "a duration such as 250ms, 30s or 5m", Units::parseDuration);
  }

  /** A duration that must be strictly positive. */
  public Duration getPositiveDuration(String key, Duration defaultValue) {
    Duration value = getDuration(key, defaultValue);
    if (value.isZero() || value.isNegative()) {
      throw invalid(key, values.get(key), "a duration greater than zero");
    }
    return value;
  }

  /** One of the constants of {@code type}, matched case-insensitively. */
  public <E extends Enum<E>> E getEnum(String key, Class<E> type, E defaultValue) {
    return get(
        key,
        defaultValue,
        "one of " + java.util.Arrays.toString(type.getEnumConstants()),
        text -> Enum.valueOf(type, text.toUpperCase(Locale.ROOT)));
  }

  /** The settings as a map of keys without the prefix; unmodifiable. */
  public Map<String, String> asMap() {
    return values;
  }

  private <T> T get(String key, T defaultValue, String expected, Function<String, T> parser) {
    String text = values.get(key);
    if (text == null) {
      return defaultValue;
    }
    try {
      return parser.apply(text);
    } catch (IllegalArgumentException e) {
      throw invalid(key, text, expected);
    }
  }

  private long requireAtLeast(String key, long value, long min) {
    if (value < min) {
      throw invalid(key, values.getOrDefault(key, Long.toString(value)), "at least " + min);
    }
    return value;
  }

  private IllegalArgumentException invalid(String key, String value, String expected) {
    return new IllegalArgumentException(
        "Invalid value '"
            + value
            + "' for configuration key '"
            + fullKey(key)
            + "': expected "
            + expected);
  }

  private static boolean parseBoolean(String text) {
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(text);
  }

  @Override
  public String toString() {
    return "ConnectorConfiguration{prefix='" + prefix + "', " + values + "}";
  }
}
