package io.seekwell.bench;

import java.util.LinkedHashMap;
import java.util.Map;

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

  static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("Missing --" + name);
    }
    return value;
  }
}
