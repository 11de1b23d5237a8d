package io.seekwell.common.config;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Typed, read-only access to the settings under one key prefix of a string map, as engines hand
 * them over (for example every key under {@code seekwell.}). Thread-safe: the map is copied on
 * construction and never changes. It remembers which keys were read, so that a key no setting reads
 * (a misspelling) can be refused ({@link #requireEveryKeyRead}).
 *
 * <p>Sizes accept plain bytes or a unit ({@code 64KB}, {@code 8MiB}, {@code 1GB}); decimal and
 * binary units both mean powers of 1024, as is usual for buffer sizes. Durations accept {@code ms},
 * {@code s}, {@code m} and {@code h} ({@code 250ms}, {@code 30s}, {@code 5m}); a plain number means
 * milliseconds. A value that cannot be parsed or is out of range raises an {@link
 * IllegalArgumentException} naming the full key and the rejected value.
 *
 * <p>Seekwell's own settings are each declared once as a {@link Setting} and read through their
 * {@link SettingGroup}; the typed getters here read a key that has no declaration (an engine's own
 * option) with the same parsing and messages.
 */
public final class ConnectorConfiguration {

  private final String prefix;
  private final Map<String, String> values;
  private final Set<String> consulted;

  private ConnectorConfiguration(String prefix, Map<String, String> values, Set<String> consulted) {
    this.prefix = prefix;
    this.values = values;
    this.consulted = consulted;
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
    return new ConnectorConfiguration(prefix, Map.copyOf(selected), ConcurrentHashMap.newKeySet());
  }

  /** An empty configuration: every getter returns its default. */
  public static ConnectorConfiguration empty() {
    return new ConnectorConfiguration("", Map.of(), ConcurrentHashMap.newKeySet());
  }

  /**
   * The settings under {@code subPrefix} of this configuration, with that part removed. Keys read
   * through it count as read here too ({@link #requireEveryKeyRead}).
   */
  public ConnectorConfiguration narrow(String subPrefix) {
    ConnectorConfiguration narrowed = of(values, subPrefix);
    return new ConnectorConfiguration(prefix + subPrefix, narrowed.values, consulted);
  }

  /**
   * Checks that every key set here was read by a setting, through this configuration or one
   * narrowed from it, except those {@code excused} accepts (full keys): a misspelled key would
   * otherwise be ignored in silence.
   *
   * @throws IllegalArgumentException naming the first unknown key, and the known key nearest to it
   */
  public void requireEveryKeyRead(Predicate<String> excused) {
    for (String key : values.keySet()) {
      String full = fullKey(key);
      if (!consulted.contains(full) && !excused.test(full)) {
        throw new IllegalArgumentException(
            "Unknown configuration key '"
                + full
                + "'"
                + nearest(full).map(known -> ": did you mean '" + known + "'?").orElse(""));
      }
    }
  }

  /**
   * The full keys read so far, through this configuration or one narrowed from it: the settings
   * that exist, once everything that reads settings has read them.
   */
  public Set<String> keysRead() {
    return Set.copyOf(consulted);
  }

  /** The key read so far that is fewest edits away from {@code key}, if any is close. */
  private Optional<String> nearest(String key) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : consulted) {
      int distance = editDistance(key, known);
      if (distance < bestDistance) {
        best = known;
        bestDistance = distance;
      }
    }
    return bestDistance <= Math.max(3, key.length() / 3) ? Optional.of(best) : Optional.empty();
  }

  /** Levenshtein distance: insertions, deletions and substitutions of one character. */
  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  /** The full key, prefix included, as the user wrote it. */
  public String fullKey(String key) {
    return prefix + key;
  }

  /** The raw value of {@code key}, if set. */
  public Optional<String> getString(String key) {
    return Optional.ofNullable(read(key));
  }

  /** The raw value of {@code key}, or {@code defaultValue}. */
  public String getString(String key, String defaultValue) {
    String value = read(key);
    return value != null ? value : defaultValue;
  }

  /** The value of {@code key} or null, the key counted as known. */
  private String read(String key) {
    consulted.add(fullKey(key));
    return values.get(key);
  }

  /** An integer value. */
  public int getInt(String key, int defaultValue) {
    return getInt(key, defaultValue, Integer.MIN_VALUE);
  }

  /** An integer value that must be at least {@code min}. */
  public int getInt(String key, int defaultValue, int min) {
    return Setting.count(key, defaultValue, min, "").read(this);
  }

  /** A long value. */
  public long getLong(String key, long defaultValue) {
    return Setting.integer(key, defaultValue, "").read(this);
  }

  /** A decimal number that must be at least {@code min}, such as {@code 1.25}. */
  public double getDouble(String key, double defaultValue, double min) {
    return Setting.number(key, defaultValue, min, Double.POSITIVE_INFINITY, "").read(this);
  }

  /** {@code true} or {@code false}, in any case. */
  public boolean getBoolean(String key, boolean defaultValue) {
    return Setting.flag(key, defaultValue, "").read(this);
  }

  /** A size in bytes, such as {@code 65536}, {@code 64KB} or {@code 8MiB}. */
  public long getSize(String key, long defaultBytes) {
    return getSize(key, defaultBytes, Long.MIN_VALUE);
  }

  /** A size in bytes that must be at least {@code min}. */
  public long getSize(String key, long defaultBytes, long min) {
    return getSize(key, defaultBytes, min, Long.MAX_VALUE);
  }

  /** A size in bytes from {@code min} to {@code max}. */
  public long getSize(String key, long defaultBytes, long min, long max) {
    return Setting.size(key, defaultBytes, min, max, "").read(this);
  }

  /** A duration, such as {@code 250ms}, {@code 30s} or {@code 5m}. */
  public Duration getDuration(String key, Duration defaultValue) {
    return Setting.duration(key, defaultValue, "").read(this);
  }

  /** A duration that must be strictly positive. */
  public Duration getPositiveDuration(String key, Duration defaultValue) {
    return Setting.positiveDuration(key, defaultValue, "").read(this);
  }

  /** One of the constants of {@code type}, matched case-insensitively. */
  public <E extends Enum<E>> E getEnum(String key, Class<E> type, E defaultValue) {
    return Setting.choice(key, type, defaultValue, "").read(this);
  }

  /** The settings as a map of keys without the prefix; unmodifiable. */
  public Map<String, String> asMap() {
    return values;
  }

  @Override
  public String toString() {
    return "ConnectorConfiguration{prefix='" + prefix + "', " + values + "}";
  }
}
