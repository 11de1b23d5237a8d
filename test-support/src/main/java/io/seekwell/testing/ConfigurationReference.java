package io.seekwell.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings listed in {@code docs/configuration.md}, for tests that check the reference against
 * the code: each table row's key, and its default when the default is one literal value.
 */
public final class ConfigurationReference {

  private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|");
  private static final Pattern LITERAL = Pattern.compile("^`([^`]+)`$");

  private ConfigurationReference() {}

  /**
   * Every key of the reference's tables, in order, with its default if that is a single value in
   * code font ({@code `64KB`}); templates such as {@code logicalio.NAME.suffixes} are left out.
   */
  public static Map<String, Optional<String>> settings() {
    Map<String, Optional<String>> settings = new LinkedHashMap<>();
    for (String line : lines()) {
      Matcher row = ROW.matcher(line);
      if (!row.find() || !row.group(1).equals(row.group(1).toLowerCase(java.util.Locale.ROOT))) {
        continue;
      }
      Matcher literal = LITERAL.matcher(row.group(2).trim());
      settings.put(
          row.group(1), literal.matches() ? Optional.of(literal.group(1)) : Optional.empty());
    }
    return settings;
  }

  /**
   * The keys under {@code prefix} whose default the reference gives as one value, with that value;
   * {@code except} (full keys) left out.
   */
  public static Map<String, String> literalDefaults(String prefix, String... except) {
    Map<String, String> defaults = new LinkedHashMap<>();
    settings()
        .forEach(
            (key, literal) -> {
              if (key.startsWith(prefix)
                  && literal.isPresent()
                  && !java.util.Arrays.asList(except).contains(key)) {
                defaults.put(key, literal.get());
              }
            });
    return defaults;
  }

  private static java.util.List<String> lines() {
    Path directory = Path.of("").toAbsolutePath();
    while (directory != null) {
      Path reference = directory.resolve("docs/configuration.md");
      if (Files.isRegularFile(reference)) {
        try {
          return Files.readAllLines(reference);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      directory = directory.getParent();
    }
    throw new IllegalStateException(
        "No docs/configuration.md above " + Path.of("").toAbsolutePath());
  }
}
