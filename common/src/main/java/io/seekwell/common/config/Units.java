package io.seekwell.common.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses sizes and durations written with units. Throws IllegalArgumentException on bad text. */
final class Units {

  private static final Pattern NUMBER_WITH_UNIT = Pattern.compile("(\\d+)\\s*([a-zA-Z]*)");

  private Units() {}

  static long parseSize(String text) {
    Matcher matcher = match(text);
    long number = Long.parseLong(matcher.group(1));
    long multiplier =
        switch (matcher.group(2).toUpperCase(Locale.ROOT)) {
          case "", "B" -> 1L;
          case "K", "KB", "KIB" -> 1L << 10;
          case "M", "MB", "MIB" -> 1L << 20;
          case "G", "GB", "GIB" -> 1L << 30;
          case "T", "TB", "TIB" -> 1L << 40;
          default -> throw new IllegalArgumentException(text);
        };
    return multiply(number, multiplier, text);
  }

  static Duration parseDuration(String text) {
    Matcher matcher = match(text);
    long number = Long.parseLong(matcher.group(1));
    long millis =
        switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
          case "", "ms" -> 1L;
          case "s" -> 1_000L;
          case "m", "min" -> 60_000L;
          case "h" -> 3_600_000L;
          default -> throw new IllegalArgumentException(text);
        };
    return Duration.ofMillis(multiply(number, millis, text));
  }

  private static Matcher match(String text) {
    Matcher matcher = NUMBER_WITH_UNIT.matcher(text.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException(text);
    }
    return matcher;
  }

  private static long multiply(long number, long multiplier, String text) {
    try {
      return Math.multiplyExact(number, multiplier);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
