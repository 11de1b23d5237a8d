package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The arguments {@code scripts/bench.sh} passes each benchmark program, read from the scripts
 * themselves so that a test of a program's options fails when a script passes one it does not take:
 * each {@code run_benchmarks_class} line of bench.sh, with the store's options of {@code
 * scripts/lib/local-s3.sh} for {@code "${S3_ARGS[@]}"} (and {@code --toxiproxy-server} after a
 * {@code start_local_s3} with the {@code harness-proxy}, as that script adds it) and, for {@code
 * "${PASS_ARGS[@]}"}, what {@code .ci/run} passes that profile. Values are the scripts' words,
 * variables unexpanded.
 */
public final class BenchScript {

  private static final Path ROOT = Path.of("..");
  private static final Pattern PROFILE_BLOCK =
      Pattern.compile("^if \\[ \"\\$PROFILE\" = (\\w+) \\]; then$");
  private static final Pattern RUN = Pattern.compile("run_benchmarks_class (\\S+) (.*)");
  private static final Pattern CI_RUN = Pattern.compile("\\./scripts/bench\\.sh (.*)");
  private static final Pattern WORD = Pattern.compile("\"([^\"]*)\"|(\\S+)");

  private BenchScript() {}

  /**
   * Asserts that {@code program}, taking {@code options}, accepts the arguments of each of its
   * invocations by bench.sh, as .ci/run runs it.
   */
  public static void assertTakesEveryInvocation(Class<?> program, Set<String> options)
      throws IOException {
    for (String[] arguments : invocations(program)) {
      assertDoesNotThrow(
          () -> Options.parse(program.getSimpleName(), options, arguments),
          String.join(" ", arguments));
    }
  }

  /**
   * Each invocation's arguments of {@code program} by bench.sh, as .ci/run runs it; never empty.
   */
  static List<String[]> invocations(Class<?> program) throws IOException {
    List<String> store = optionsOf(read("scripts/lib/local-s3.sh"), "S3_ARGS");
    Map<String, List<String>> ciArguments = ciArguments();
    List<String[]> invocations = new ArrayList<>();
    String profile = null;
    boolean harnessProxy = false;
    for (String line : read("scripts/bench.sh")) {
      Matcher block = PROFILE_BLOCK.matcher(line);
      if (block.matches()) {
        profile = block.group(1);
      } else if (line.equals("fi")) {
        profile = null;
      } else if (line.trim().startsWith("start_local_s3 ")) {
        harnessProxy = line.endsWith(" harness-proxy");
      }
      Matcher run = RUN.matcher(line.trim());
      if (!run.matches() || !run.group(1).equals(program.getName())) {
        continue;
      }
      List<String> arguments = new ArrayList<>();
      for (String word : words(run.group(2))) {
        switch (word) {
          case "${S3_ARGS[@]}" -> {
            arguments.addAll(store);
            if (harnessProxy) {
              arguments.addAll(List.of("--toxiproxy-server", "value"));
            }
          }
          case "${PASS_ARGS[@]}" ->
              arguments.addAll(
                  ciArguments.getOrDefault(profile == null ? "s3" : profile, List.of()));
          default -> arguments.add(word);
        }
      }
      invocations.add(arguments.toArray(String[]::new));
    }
    if (invocations.isEmpty()) {
      throw new IllegalStateException("scripts/bench.sh does not run " + program.getName());
    }
    return invocations;
  }

  /**
   * What .ci/run passes bench.sh for each profile, besides {@code --profile} and {@code --quick}.
   */
  private static Map<String, List<String>> ciArguments() throws IOException {
    Map<String, List<String>> byProfile = new LinkedHashMap<>();
    for (String line : read(".ci/run")) {
      Matcher run = CI_RUN.matcher(line.trim());
      if (!run.matches()) {
        continue;
      }
      List<String> words = new ArrayList<>(words(run.group(1)));
      words.remove("--quick");
      int profile = words.indexOf("--profile");
      String name = profile < 0 ? "s3" : words.remove(profile + 1);
      words.remove("--profile");
      byProfile.computeIfAbsent(name, key -> new ArrayList<>()).addAll(words);
    }
    return byProfile;
  }

  /**
   * The options an array of {@code script} is first given ({@code NAME=(...)}), with stand-in
   * values.
   */
  private static List<String> optionsOf(List<String> script, String array) {
    List<String> options = new ArrayList<>();
    Pattern assignment = Pattern.compile(array + "=\\((.*)\\)");
    for (String line : script) {
      Matcher matcher = assignment.matcher(line.trim());
      if (matcher.matches()) {
        for (String word : words(matcher.group(1))) {
          if (word.startsWith("--")) {
            options.add(word);
            options.add("value");
          }
        }
      }
    }
    return options;
  }

  /** A script's lines, those continued with a backslash joined to the next. */
  private static List<String> read(String file) throws IOException {
    String text = Files.readString(ROOT.resolve(file)).replace("\\\n", " ");
    return text.lines().toList();
  }

  /** The words of a line as the shell splits them, double quotes kept out. */
  private static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    Matcher word = WORD.matcher(line);
    while (word.find()) {
      words.add(word.group(1) != null ? word.group(1) : word.group(2));
    }
    return words;
  }
}
