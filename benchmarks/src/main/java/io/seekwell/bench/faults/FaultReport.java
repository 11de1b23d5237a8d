package io.seekwell.bench.faults;

import io.seekwell.bench.Options;
import io.seekwell.bench.faults.FaultBenchmark.Condition;
import io.seekwell.bench.faults.FaultBenchmark.Outcome;
import io.seekwell.bench.faults.FaultBenchmark.Run;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.report.MarkdownTable;
import io.seekwell.bench.report.RunHeader;
import io.seekwell.bench.report.Spread;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fault benchmark's tables: per workload, a row per path and a column per condition, each cell
 * the median time of the right iterations and how every iteration ended. Not thread-safe: the
 * benchmark's main thread adds to it and writes it.
 */
final class FaultReport {

  private final Options options;
  private final Dataset.Scale scale;
  private final int iterations;
  private final long deadlineSeconds;
  private final List<String> paths;
  private final Map<Workload, Map<String, Map<Condition, List<Run>>>> results =
      new LinkedHashMap<>();

  FaultReport(
      Options options,
      Dataset.Scale scale,
      int iterations,
      long deadlineSeconds,
      List<String> paths) {
    this.options = options;
    this.scale = scale;
    this.iterations = iterations;
    this.deadlineSeconds = deadlineSeconds;
    this.paths = List.copyOf(paths);
  }

  /** Adds the runs of each path of {@code workload} under {@code condition}. */
  void add(Workload workload, Condition condition, Map<String, List<Run>> byPath) {
    Map<String, Map<Condition, List<Run>>> workloadRuns =
        results.computeIfAbsent(workload, w -> new LinkedHashMap<>());
    byPath.forEach(
        (path, runs) ->
            workloadRuns
                .computeIfAbsent(path, p -> new LinkedHashMap<>())
                .computeIfAbsent(condition, c -> new ArrayList<>())
                .addAll(runs));
  }

  /** Each workload, Seekwell path and condition where Seekwell returned a wrong result. */
  List<String> seekwellWrongResults() {
    List<String> wrong = new ArrayList<>();
    results.forEach(
        (workload, byPath) ->
            byPath.forEach(
                (path, byCondition) ->
                    byCondition.forEach(
                        (condition, runs) -> {
                          if (Peer.namesSeekwell(path)
                              && runs.stream().anyMatch(r -> r.outcome() == Outcome.WRONG)) {
                            wrong.add(workload + " " + path + " " + condition.label());
                          }
                        })));
    return wrong;
  }

  /** The section in Markdown: how the run was made, then a table per workload. */
  String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("## Faults\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "%s. Every read path with one fault kind at a time on a share of the connections, injected"
                + " by a proxy in front of the emulated S3 network (profile `%s`, scale `%s`): a"
                + " stall (the connection sends nothing and stays open), a cut after 4 KiB with FIN"
                + " or with RST, or a first byte 1.5 s late. Under a fault the proxy asks the store to"
                + " close each connection after its response, so every request gets a connection,"
                + " and a fault drawn, of its own. Each path runs once unmeasured first. Iterations"
                + " per cell: %d, each cold; an iteration still running"
                + " after %d s is abandoned, and before the next one the proxy drops its"
                + " connections until none is opened for a second (ten after an abandoned one),"
                + " so that the abandoned one's requests fail and most clients' retries run out."
                + " Each cell: median seconds of the iterations with the right"
                + " result (the fastest and the slowest in brackets) and their median client CPU"
                + " (all threads of the benchmark JVM from opening the path's clients to closing"
                + " them), then how the iterations ended (✓ right, ✗ wrong result, F failed, T"
                + " still running at the deadline; † began while connections still came a minute"
                + " after the iteration before).\n\n",
            RunHeader.runOn(),
            options.text("profile", "s3"),
            scale.name().toLowerCase(Locale.ROOT),
            iterations,
            deadlineSeconds));
    md.append("Reproduce: `./scripts/bench.sh --profile faults");
    if (scale == Dataset.Scale.QUICK) {
      md.append(" --quick");
    }
    for (String option :
        List.of("paths", "workloads", "faults", "fractions", "iterations", "deadline")) {
      if (options.has(option)) {
        md.append(" --").append(option).append(' ').append(options.required(option));
      }
    }
    md.append("`\n\n");
    for (Map.Entry<Workload, Map<String, Map<Condition, List<Run>>>> workload :
        results.entrySet()) {
      md.append("### ")
          .append(workload.getKey())
          .append(": ")
          .append(workload.getKey().description)
          .append("\n\n");
      md.append(table(workload.getValue())).append('\n');
      md.append(hedgeLine(workload.getValue()));
    }
    return md.toString();
  }

  private String table(Map<String, Map<Condition, List<Run>>> byPath) {
    List<Condition> conditions =
        byPath.values().stream()
            .flatMap(byCondition -> byCondition.keySet().stream())
            .distinct()
            .toList();
    List<String> header = new ArrayList<>(List.of("path"));
    conditions.forEach(condition -> header.add(condition.label()));
    MarkdownTable table = new MarkdownTable(header);
    for (String path : paths) {
      Map<Condition, List<Run>> byCondition = byPath.get(path);
      if (byCondition == null) {
        continue;
      }
      List<String> row = new ArrayList<>(List.of(path));
      conditions.forEach(condition -> row.add(cell(byCondition.get(condition))));
      table.row(row);
    }
    return table.toString();
  }

  /**
   * A cell: the median seconds of the right iterations (with their range if more than one) and
   * their median CPU, then how each iteration ended, marked † if it overlapped an abandoned one.
   */
  static String cell(List<Run> runs) {
    if (runs == null || runs.isEmpty()) {
      return "–";
    }
    List<Sample> right =
        runs.stream().filter(run -> run.outcome() == Outcome.RIGHT).map(Run::sample).toList();
    StringBuilder outcomes = new StringBuilder();
    for (Run run : runs) {
      outcomes.append(
          switch (run.outcome()) {
            case RIGHT -> "✓";
            case WRONG -> "✗";
            case FAILED -> "F";
            case STILL_RUNNING -> "T";
          });
      if (run.overlapped()) {
        outcomes.append('†');
      }
    }
    if (right.isEmpty()) {
      return "– " + outcomes;
    }
    Spread seconds = Spread.of(right, Sample::seconds);
    return String.format(
        Locale.ROOT,
        "%s s (CPU %.2f s) %s",
        right.size() == 1 ? String.format(Locale.ROOT, "%.2f", seconds.median()) : seconds.cell(),
        Spread.median(right, Sample::cpuSeconds),
        outcomes);
  }

  /** The share of GETs that were hedges, for the paths that report it, with no fault. */
  private static String hedgeLine(Map<String, Map<Condition, List<Run>>> byPath) {
    StringBuilder line = new StringBuilder();
    for (Map.Entry<String, Map<Condition, List<Run>>> path : byPath.entrySet()) {
      for (Map.Entry<Condition, List<Run>> condition : path.getValue().entrySet()) {
        if (condition.getKey().fault() != null) {
          continue;
        }
        long gets = 0;
        long hedges = 0;
        for (Run run : condition.getValue()) {
          if (run.sample() != null && run.sample().hedges() >= 0) {
            gets += run.sample().gets();
            hedges += run.sample().hedges();
          }
        }
        if (gets > 0) {
          line.append(
              String.format(
                  Locale.ROOT,
                  "%s%s: %d hedged of %d GETs (%.1f %%)",
                  line.length() == 0 ? "Hedged GETs with no fault: " : "; ",
                  path.getKey(),
                  hedges,
                  gets,
                  100.0 * hedges / gets));
        }
      }
    }
    return line.length() == 0 ? "" : line.append(".\n\n").toString();
  }
}
