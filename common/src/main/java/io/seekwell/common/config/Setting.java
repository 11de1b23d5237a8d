package io.seekwell.common.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one declaration of a setting: its key (under its group's prefix), its kind, its default, the
 * values it allows and one line saying what it does. Reading it from a map ({@link #read}),
 * checking a value set through a builder ({@link #problem}) and the configuration reference all
 * come from here. Immutable and thread-safe.
 *
 * <p>A value that cannot be parsed, or that is out of range, fails with an {@link
 * IllegalArgumentException} naming the full key, the value and what is allowed.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {

  private static final String SIZE = "a size such as 65536, 64KB or 8MiB";
  private static final String INTEGER = "an integer";

  private final String key;
  private final T defaultValue;
  private final String doc;
  private final Function<String, T> parser;
  private final String expected;
  private final Function<T, String> range;
  private final Optional<String> defaultText;

  private Setting(
      String key,
      T defaultValue,
      String doc,
      Function<String, T> parser,
      String expected,
      Function<T, String> range,
      Optional<String> defaultText) {
    this.key = Objects.requireNonNull(key, "key");
    this.defaultValue = defaultValue;
    this.doc = Objects.requireNonNull(doc, "doc");
    this.parser = parser;
    this.expected = expected;
    this.range = range;
    this.defaultText = defaultText;
  }

  /**
   * A setting of any kind: {@code parser} turns text into a value (throwing {@link
   * IllegalArgumentException} for text that is none, which is then reported as not {@code
   * expected}), and {@code range} says what is wrong with a value, or returns null when it is
   * allowed.
   */
  public static <T> Setting<T> of(
      String key,
      T defaultValue,
      Function<String, T> parser,
      String expected,
      Function<T, String> range,
      String doc) {
    return new Setting<>(key, defaultValue, doc, parser, expected, range, Optional.empty());
  }

  /** A size in bytes from {@code min} to {@code max}, such as {@code 65536}, {@code 64KB}. */
  public static Setting<Long> size(String key, long defaultBytes, long min, long max, String doc) {
    return of(
        key,
        defaultBytes,
        Units::parseSize,
        SIZE,
        value -> value < min ? "at least " + min : value > max ? "at most " + max + " bytes" : null,
        doc);
  }

  /** A size in bytes of at least {@code min}. */
  public static Setting<Long> size(String key, long defaultBytes, long min, String doc) {
    return size(key, defaultBytes, min, Long.MAX_VALUE, doc);
  }

  /** An integer of at least {@code min}: a count of things. */
  public static Setting<Integer> count(String key, int defaultValue, int min, String doc) {
    return of(
        key,
        defaultValue,
        Integer::parseInt,
        INTEGER,
        value -> value < min ? "at least " + min : null,
        doc);
  }

  /** A long integer, any value. */
  public static Setting<Long> integer(String key, long defaultValue, String doc) {
    return of(key, defaultValue, Long::parseLong, INTEGER, value -> null, doc);
  }

  /** A decimal number from {@code min} to {@code max}, such as {@code 1.25}. */
  public static Setting<Double> number(
      String key, double defaultValue, double min, double max, String doc) {
    return of(
        key,
        defaultValue,
        Double::parseDouble,
        "a number such as 1.25",
        value ->
            Double.isNaN(value) || Double.isInfinite(value) || value < min
                ? "a number of at least " + min
                : value > max ? "at most " + plain(max) : null,
        doc);
  }

  /** A duration such as {@code 250ms}, {@code 30s} or {@code 5m}, of any length. */
  public static Setting<Duration> duration(String key, Duration defaultValue, String doc) {
    return of(
        key,
        defaultValue,
        Units::parseDuration,
        "a duration such as 250ms, 30s or 5m",
        value -> null,
        doc);
  }

  /** A duration greater than zero. */
  public static Setting<Duration> positiveDuration(String key, Duration defaultValue, String doc) {
    return duration(key, defaultValue, doc)
        .allowing(value -> !value.isZero() && !value.isNegative(), "a duration greater than zero");
  }

  /** {@code true} or {@code false}, in any case. */
  public static Setting<Boolean> flag(String key, boolean defaultValue, String doc) {
    return of(key, defaultValue, Setting::parseBoolean, "true or false", value -> null, doc);
  }

  /** One of the constants of {@code type}, matched in any case. */
  public static <E extends Enum<E>> Setting<E> choice(
      String key, Class<E> type, E defaultValue, String doc) {
    return of(
        key,
        defaultValue,
        text -> Enum.valueOf(type, text.toUpperCase(Locale.ROOT)),
        "one of " + Arrays.toString(type.getEnumConstants()),
        value -> null,
        doc);
  }

  /** A comma-separated list; items are trimmed and empty ones dropped. */
  public static Setting<List<String>> list(String key, List<String> defaultValue, String doc) {
    return of(
        key,
        List.copyOf(defaultValue),
        text -> Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList(),
        "a comma-separated list",
        value -> null,
        doc);
  }

  /** Free text, unset by default; blank text counts as unset. */
  public static Setting<Optional<String>> text(String key, String doc) {
    return of(
        key,
        Optional.empty(),
        value -> Optional.of(value.trim()).filter(trimmed -> !trimmed.isEmpty()),
        "text",
        value -> null,
        doc);
  }

  /** This setting, refusing values {@code allowed} does not accept as not {@code expectation}. */
  public Setting<T> allowing(Predicate<T> allowed, String expectation) {
    return new Setting<>(
        key,
        defaultValue,
        doc,
        parser,
        expected,
        value -> {
          String problem = range.apply(value);
          return problem != null || allowed.test(value) ? problem : expectation;
        },
        defaultText);
  }

  /** This setting, also accepting {@code word} (in any case) for {@code value}. */
  public Setting<T> orWord(String word, T value) {
    return new Setting<>(
        key,
        defaultValue,
        doc,
        text -> text.equalsIgnoreCase(word) ? value : parser.apply(text),
        expected,
        candidate -> Objects.equals(candidate, value) ? null : range.apply(candidate),
        defaultText);
  }

  /**
   * This setting, with its default described in words in the configuration reference (a default
   * that depends on the machine or on other settings).
   */
  public Setting<T> describingDefault(String text) {
    return new Setting<>(key, defaultValue, doc, parser, expected, range, Optional.of(text));
  }

  /** The key under the group's prefix, such as {@code retry.max.attempts}. */
  public String key() {
    return key;
  }

  /** The value when the key is not set. */
  public T defaultValue() {
    return defaultValue;
  }

  /** One line saying what the setting does, as the configuration reference says it. */
  public String doc() {
    return doc;
  }

  /** The default in words, for a default the reference cannot give as one value. */
  public Optional<String> defaultText() {
    return defaultText;
  }

  /** The value of {@code text}, unchecked against the range. */
  public T parse(String text) {
    return parser.apply(text);
  }

  /** What is wrong with {@code value}, or null when it is allowed. */
  String problem(T value) {
    return value == null ? "a value" : range.apply(value);
  }

  /**
   * The value set in {@code configuration} (already narrowed to the group's prefix), or the
   * default.
   *
   * @throws IllegalArgumentException naming the full key, for text that is no value or a value out
   *     of range
   */
  public T read(ConnectorConfiguration configuration) {
    Optional<String> text = configuration.getString(key);
    if (text.isEmpty()) {
      return defaultValue;
    }
    T value;
    try {
      value = parser.apply(text.get());
    } catch (IllegalArgumentException e) {
      throw invalid(configuration.fullKey(key), text.get(), expected, e);
    }
    String problem = problem(value);
    if (problem != null) {
      throw invalid(configuration.fullKey(key), text.get(), problem, null);
    }
    return value;
  }

  /** {@code value} if allowed; otherwise an exception naming {@code fullKey}. */
  T check(String fullKey, T value) {
    String problem = problem(value);
    if (problem != null) {
      throw invalid(fullKey, String.valueOf(value), problem, null);
    }
    return value;
  }

  /** The refusal of {@code value} for {@code fullKey}, with the parser's exception if any. */
  private static IllegalArgumentException invalid(
      String fullKey, String value, String expectation, IllegalArgumentException cause) {
    return new IllegalArgumentException(
        "Invalid value '"
            + value
            + "' for configuration key '"
            + fullKey
            + "': expected "
            + expectation,
        cause);
  }

  private static String plain(double number) {
    return number == Math.rint(number) ? Long.toString((long) number) : Double.toString(number);
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
    return key;
  }
}
