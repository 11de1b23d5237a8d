package io.seekwell.bench.spark;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --name value} arguments of one program of this module. A name the program does not
 * take, or a missing value, ends it before it starts, naming the argument. Immutable.
 */
final class Arguments {

  private final String program;
  private final Map<String, String> values;

  private Arguments(String program, Map<String, String> values) {
    this.program = program;
    this.values = values;
  }

  /**
   * Reads {@code args} as {@code --name value} pairs of the names {@code program} takes: {@code
   * shared} ones and its {@code own}.
   */
  static Arguments parse(String program, Set<String> shared, Set<String> own, String[] args) {
    Set<String> takes = new HashSet<>(shared);
    takes.addAll(own);
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i].startsWith("--") ? args[i].substring(2) : null;
      if (name == null || i + 1 >= args.length) {
        throw new IllegalArgumentException(program + ": expected --name value pairs: " + args[i]);
      }
      if (!takes.contains(name)) {
        throw new IllegalArgumentException(
            program + " does not take --" + name + "; it takes --" + new TreeSet<>(takes));
      }
      values.put(name, args[i + 1]);
    }
    return new Arguments(program, values);
  }

  /** The value of {@code --name}. */
  String required(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException(program + " needs --" + name);
    }
    return value;
  }

  /** The value of {@code --name}, or {@code fallback}. */
  String text(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  /** The value of {@code --name} as a number, or {@code fallback}. */
  int integer(String name, int fallback) {
    String value = values.get(name);
    try {
      return value == null ? fallback : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(program + ": --" + name + " is not a number: " + value, e);
    }
  }

  /** The value of {@code --name} as a decimal number. */
  double decimal(String name) {
    String value = required(name);
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(program + ": --" + name + " is not a number: " + value, e);
    }
  }

  /** The {@code key=value} pairs of {@code --name key=value,…}; none if it is not given. */
  Map<String, String> pairs(String name) {
    Map<String, String> pairs = new LinkedHashMap<>();
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      return pairs;
    }
    for (String pair : value.split(",")) {
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(program + ": --" + name + " takes key=value: " + pair);
      }
      pairs.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
    }
    return pairs;
  }
}
