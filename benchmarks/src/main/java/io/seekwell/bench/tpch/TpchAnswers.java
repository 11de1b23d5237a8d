package io.seekwell.bench.tpch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Whether the TPC-H paths answered alike: every query's answer (row count and digest) the same
 * through every path, in every round and on the floor, and Q1 with its four groups (else the data
 * did not load). Immutable.
 */
final class TpchAnswers {

  private final List<String> queries;
  private final List<TpchPathRuns> paths;

  TpchAnswers(List<String> queries, List<TpchPathRuns> paths) {
    this.queries = List.copyOf(queries);
    this.paths = List.copyOf(paths);
  }

  /** What is wrong with the answers, one line each; empty if nothing. */
  List<String> problems() {
    List<String> problems = new ArrayList<>();
    for (String query : queries) {
      Map<String, TreeSet<String>> pathsByAnswer = new LinkedHashMap<>();
      for (TpchPathRuns path : paths) {
        for (TpchQueryRun run : path.all(query)) {
          pathsByAnswer
              .computeIfAbsent(
                  run.digest() + " (" + run.rows() + " rows)", answer -> new TreeSet<>())
              .add(path.path());
        }
      }
      if (pathsByAnswer.size() > 1) {
        problems.add(query + " is answered differently: " + pathsByAnswer);
      }
    }
    if (queries.contains("q01")) {
      for (TpchPathRuns path : paths) {
        path.all("q01").stream()
            .filter(run -> run.rows() != 4)
            .findFirst()
            .ifPresent(
                run ->
                    problems.add(
                        "q01 answered "
                            + run.rows()
                            + " rows through "
                            + path.path()
                            + ", not its 4 groups: the data is not all there"));
      }
    }
    return problems;
  }

  /** The report's section on the answers. */
  String markdown() {
    List<String> problems = problems();
    if (problems.isEmpty()) {
      return String.format(
          "The %d paths answered each of the %d queries alike, in every round%s.%n",
          paths.size(),
          queries.size(),
          paths.stream().allMatch(TpchPathRuns::hasFloor) ? " and on the floor" : "");
    }
    StringBuilder out = new StringBuilder("**The paths' answers differ: the run failed.**\n\n");
    problems.forEach(problem -> out.append("- ").append(problem).append('\n'));
    return out.toString();
  }
}
