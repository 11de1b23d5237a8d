package io.seekwell.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** {@code --name value} command-line options. */
final class Options {

  private Options() {}

  static Map<String, String> parse(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("Expected --name value pairs, got: " + args[i]);
      }
      options.put(args[i].substring(2), args[++i]);
    }
    return options;
  }

  /**
   * What a report says about its targets: the verdicts {@code targets} writes, or, for a smoke run
   * ({@code --smoke true}, which {@code bench.sh --quick} passes), that none is judged.
   */
  static String targetsOrSmokeNote(Map<String, String> options, Supplier<String> targets) {
    return Boolean.parseBoolean(options.getOrDefault("smoke", "false"))
        ? SMOKE_NOTE + "\n"
        : targets.get();
  }

  /** What a smoke run's report says in place of its targets. */
  static final String SMOKE_NOTE =
      "A smoke run (`--quick`): small data, one iteration. It checks that the benchmark runs;"
          + " its numbers mean nothing, and no target is judged.";

  static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("Missing --" + name);
    }
    return value;
  }
}
