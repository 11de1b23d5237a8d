package io.seekwell.testing;

import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings listed in {@code docs/configuration.md}, for tests that check the reference against
 * the code: each table row's key, and its default when the default is one literal value; and
 * whether the reference lists a {@link SettingGroup}'s declarations as declared ({@link
 * #mismatches}).
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
      if (!row.find() || !row.group(1).equals(row.group(1).toLowerCase(Locale.ROOT))) {
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
                  && !Arrays.asList(except).contains(key)) {
                defaults.put(key, literal.get());
              }
            });
    return defaults;
  }

  /**
   * Where the reference disagrees with the declarations of {@code group}, one line each (empty when
   * it agrees): a declared key without a row; a row whose default is not the declared one (its
   * value in code font, parsed, or the declared description in words); a row whose meaning does not
   * contain the declared doc line; a row under the group's prefix that no setting of it declares,
   * unless it starts with one of {@code elsewhere} (keys, or prefixes of keys, declared by other
   * groups or read by other code).
   */
  public static List<String> mismatches(SettingGroup group, String... elsewhere) {
    return mismatches(group, lines(), List.of(elsewhere));
  }

  static List<String> mismatches(SettingGroup group, List<String> lines, List<String> elsewhere) {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        List<String> cells = Arrays.stream(line.split("\\|")).map(String::trim).toList();
        rows.put(row.group(1), cells.subList(1, cells.size()));
      }
    }
    List<String> mismatches = new ArrayList<>();
    Set<String> declared = new HashSet<>();
    for (Setting<?> setting : group.settings()) {
      String key = group.fullKey(setting);
      declared.add(key);
      List<String> cells = rows.get(key);
      if (cells == null) {
        mismatches.add(key + ": declared, but no row in the reference");
        continue;
      }
      String defaultCell = cells.get(1);
      if (!defaultMatches(setting, defaultCell)) {
        mismatches.add(key + ": the reference's default " + defaultCell + " is not the declared");
      }
      if (!cells.get(cells.size() - 1).contains(setting.doc())) {
        mismatches.add(key + ": the reference's meaning lacks '" + setting.doc() + "'");
      }
    }
    rows.keySet().stream()
        .filter(key -> key.startsWith(group.prefix()) && !declared.contains(key))
        .filter(key -> key.equals(key.toLowerCase(Locale.ROOT)))
        .filter(key -> elsewhere.stream().noneMatch(key::startsWith))
        .forEach(key -> mismatches.add(key + ": in the reference, but declared by no setting"));
    return mismatches;
  }

  /**
   * Whether {@code cell} gives the declared default: the description in words, if the setting has
   * one; else one value in code font that parses to the default (text that does not parse fails the
   * setting's own parser, which says why).
   */
  private static boolean defaultMatches(Setting<?> setting, String cell) {
    if (setting.defaultText().isPresent()) {
      return setting.defaultText().get().equals(cell);
    }
    Matcher literal = LITERAL.matcher(cell);
    return literal.matches() && setting.defaultValue().equals(setting.parse(literal.group(1)));
  }

  private static List<String> lines() {
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
