package io.seekwell.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code --name value} options of one benchmark program, read as typed values. Every program
 * declares the names it takes; a name it does not declare, a value missing, or a value of the wrong
 * type ends the run before anything is measured, with a message that names the option. Immutable.
 */
public final class Options {

  /** The options every program against a store takes: where it is and how to sign in. */
  static final Set<String> STORE = Set.of("endpoint", "access-key", "secret-key", "profile");

  /**
   * What a smoke run's report says in place of its targets ({@code --smoke true}, which {@code
   * bench.sh --quick} passes).
   */
  public static final String SMOKE_NOTE =
      "A smoke run (`--quick`): small data, one iteration. It checks that the benchmark runs;"
          + " its numbers mean nothing, and no target is judged.";

  private final String program;
  private final Map<String, String> values;

  private Options(String program, Map<String, String> values) {
    this.program = program;
    this.values = values;
  }

  /**
   * Reads {@code args} as {@code --name value} pairs for {@code program}, which takes the options
   * {@link #STORE} and {@code known}.
   *
   * @throws IllegalArgumentException on an option {@code program} does not take, or one without a
   *     value
   */
  public static Options parse(String program, Set<String> known, String[] args) {
    Set<String> takes = new LinkedHashSet<>(STORE);
    takes.addAll(known);
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            program + ": expected --name value pairs, got: " + args[i]);
      }
      String name = args[i].substring(2);
      if (!takes.contains(name)) {
        throw new IllegalArgumentException(
            program
                + " does not take --"
                + name
                + "; it takes --"
                + String.join(", --", sorted(takes)));
      }
      values.put(name, args[++i]);
    }
    return new Options(program, values);
  }

  private static Set<String> sorted(Set<String> names) {
    return new TreeSet<>(names);
  }

  /** Whether {@code --name} was given. */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The value of {@code --name}, or {@code otherwise}. */
  public String text(String name, String otherwise) {
    return values.getOrDefault(name, otherwise);
  }

  /** The value of {@code --name}, which the program cannot run without. */
  public String required(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException(program + " needs --" + name);
    }
    return value;
  }

  /** {@code --name} as a whole number, or {@code otherwise}. */
  public int integer(String name, int otherwise) {
    return typed(name, "a whole number", Integer::valueOf, otherwise);
  }

  /** {@code --name} as a long whole number, or {@code otherwise}. */
  public long longInteger(String name, long otherwise) {
    return typed(name, "a whole number", Long::valueOf, otherwise);
  }

  /** {@code --name} as a decimal number, or {@code otherwise}. */
  public double decimal(String name, double otherwise) {
    return typed(name, "a number", Double::valueOf, otherwise);
  }

  /** {@code --name} as {@code true} or {@code false}; {@code false} if not given. */
  public boolean flag(String name) {
    return typed(name, "true or false", Options::strictBoolean, false);
  }

  /** {@code --name} as a comma-separated list, each entry trimmed and none empty. */
  public List<String> list(String name, String otherwise) {
    return Arrays.stream(text(name, otherwise).split(","))
        .map(String::trim)
        .filter(entry -> !entry.isEmpty())
        .toList();
  }

  /** {@code --name} as a comma-separated list of values {@code parse} reads. */
  public <T> List<T> list(String name, String otherwise, String type, Function<String, T> parse) {
    return list(name, otherwise).stream()
        .map(entry -> typedValue(name, entry, type, parse))
        .toList();
  }

  /**
   * What a report says about its targets: the verdicts {@code targets} writes, or, for a smoke run
   * ({@code --smoke true}), that none is judged.
   */
  public String targetsOrSmokeNote(Supplier<String> targets) {
    return flag("smoke") ? SMOKE_NOTE + "\n" : targets.get();
  }

  /** {@code --name} (or {@code otherwise}) as {@code parse} reads it: {@code type} names it. */
  public <T> T value(String name, String otherwise, String type, Function<String, T> parse) {
    return typedValue(name, text(name, otherwise), type, parse);
  }

  private <T> T typed(String name, String type, Function<String, T> parse, T otherwise) {
    String value = values.get(name);
    return value == null ? otherwise : typedValue(name, value, type, parse);
  }

  private <T> T typedValue(String name, String value, String type, Function<String, T> parse) {
    try {
      return parse.apply(value.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          program + ": --" + name + " takes " + type + ", was " + value, e);
    }
  }

  private static Boolean strictBoolean(String value) {
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(value);
    }
    return Boolean.valueOf(value);
  }
}
