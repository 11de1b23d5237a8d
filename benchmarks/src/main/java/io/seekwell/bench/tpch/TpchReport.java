package io.seekwell.bench.tpch;

import io.seekwell.bench.Options;
import io.seekwell.bench.report.MarkdownTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.ToDoubleBiFunction;
import java.util.function.ToDoubleFunction;

/**
 * The TPC-H benchmark's report: whether every path answered alike ({@link TpchAnswers}), totals and
 * per-query tables of every path (wall time against its own floor, GETs, bytes, CPU, GC), the
 * floor's totals, and the targets of Seekwell's paths, met or missed, each against the peers of its
 * table format. Not thread-safe: one run builds it.
 */
final class TpchReport {

  /** Seekwell's path and the AAL path of its format, whose GETs it must not exceed. */
  private static final Map<String, String> AAL_OF =
      Map.of("seekwell-iceberg", "iceberg-aal", "seekwell-s3a", "s3a-analytics");

  private final String setup;
  private final Options options;
  private final List<String> queries;
  private final List<TpchPathRuns> paths;

  /**
   * A report of {@code paths}' runs of {@code queries}, under a first paragraph {@code setup} (what
   * ran, where, with which settings and how to reproduce it).
   */
  TpchReport(String setup, Options options, List<String> queries, List<TpchPathRuns> paths) {
    this.setup = setup;
    this.options = options;
    this.queries = List.copyOf(queries);
    this.paths = List.copyOf(paths);
  }

  /** The report in Markdown. */
  String markdown() {
    StringBuilder out = new StringBuilder("# TPC-H in Spark\n\n").append(setup).append("\n\n");
    out.append("## Answers\n\n").append(new TpchAnswers(queries, paths).markdown()).append('\n');
    out.append("## Totals\n\n").append(totals()).append('\n');
    if (paths.stream().anyMatch(TpchPathRuns::hasFloor)) {
      out.append("## The floor\n\n")
          .append(
              "The same queries with the store on loopback: totals of the medians of the"
                  + " rounds.\n\n")
          .append(floors())
          .append('\n');
    }
    out.append("## Targets\n\n").append(options.targetsOrSmokeNote(this::targets)).append('\n');
    out.append("## Wall time per query\n\n")
        .append(
            "Seconds, the median of the rounds; with the floor, the time as a multiple of the"
                + " path's own time on it.\n\n")
        .append(perQuery(this::timeCell))
        .append('\n');
    out.append("## GETs per query\n\n")
        .append("Object GETs the store answered, the median of the rounds.\n\n")
        .append(perQuery((path, query) -> number(path.gets(query))))
        .append('\n');
    out.append("## MB from the store per query\n\n")
        .append(perQuery((path, query) -> decimal(path.megabytes(query))))
        .append('\n');
    out.append("## Executor CPU per query\n\n")
        .append(
            "Seconds of CPU both executor JVMs used, every thread counted (the median of the"
                + " rounds).\n\n")
        .append(perQuery((path, query) -> decimal(path.executorCpuSeconds(query))))
        .append('\n');
    out.append("## Executor GC per query\n\n")
        .append(
            "Seconds both executor JVMs spent in garbage collection while they ran the query's"
                + " tasks (Spark's `jvmGcTime`, the median of the rounds).\n\n")
        .append(perQuery((path, query) -> decimal(path.executorGcSeconds(query))))
        .append('\n');
    return out.toString();
  }

  /** Writes the report to {@code markdown} and its chart beside it ({@code .png}). */
  void write(Path markdown) throws IOException {
    Path png = markdown.resolveSibling(markdown.getFileName().toString().replace(".md", ".png"));
    Files.writeString(
        markdown,
        markdown() + "\n![Wall time per query and in total](" + png.getFileName() + ")\n");
    TpchChart.write(queries, paths, png);
  }

  private String totals() {
    MarkdownTable table =
        new MarkdownTable(
            "path",
            "time s",
            "floor s",
            "× floor",
            "first round s",
            "GETs",
            "MB",
            "driver CPU s",
            "executor CPU s",
            "executor GC s");
    for (TpchPathRuns path : paths) {
      double seconds = TpchPathRuns.total(queries, path::seconds);
      Optional<Double> floor = floorTotal(path);
      table.row(
          path.path(),
          decimal(seconds),
          floor.map(TpchReport::decimal).orElse("–"),
          floor.map(value -> ratio(seconds / value)).orElse("–"),
          decimal(path.firstRoundSeconds()),
          number(TpchPathRuns.total(queries, path::gets)),
          number(TpchPathRuns.total(queries, path::megabytes)),
          decimal(TpchPathRuns.total(queries, path::driverCpuSeconds)),
          decimal(TpchPathRuns.total(queries, path::executorCpuSeconds)),
          decimal(TpchPathRuns.total(queries, path::executorGcSeconds)));
    }
    return table.toString();
  }

  /** The floor's totals of the paths that ran it: time, executor CPU and executor GC. */
  private String floors() {
    MarkdownTable table = new MarkdownTable("path", "floor s", "executor CPU s", "executor GC s");
    for (TpchPathRuns path : paths) {
      if (path.hasFloor()) {
        table.row(
            path.path(),
            decimal(TpchPathRuns.total(queries, path::floorSeconds)),
            decimal(TpchPathRuns.total(queries, path::floorExecutorCpuSeconds)),
            decimal(TpchPathRuns.total(queries, path::floorExecutorGcSeconds)));
      }
    }
    return table.toString();
  }

  private Optional<Double> floorTotal(TpchPathRuns path) {
    return path.hasFloor()
        ? Optional.of(TpchPathRuns.total(queries, path::floorSeconds))
        : Optional.empty();
  }

  private String targets() {
    StringBuilder out = new StringBuilder();
    for (TpchPathRuns seekwell : paths) {
      if (seekwell.seekwell()) {
        out.append("**").append(seekwell.path()).append("**\n\n").append(targets(seekwell));
        out.append('\n');
      }
    }
    return out.toString();
  }

  private String targets(TpchPathRuns seekwell) {
    StringBuilder out = new StringBuilder();
    if (seekwell.hasFloor()) {
      out.append(
          verdict(
              "every query within 1.1 × its floor",
              over(seekwell::seconds, seekwell::floorSeconds, 1.1)));
      double total = TpchPathRuns.total(queries, seekwell::seconds);
      double floor = floorTotal(seekwell).orElseThrow();
      out.append(
          String.format(
              Locale.ROOT,
              "- in total within 1.05 × the floor: %s (%s)%n",
              total <= 1.05 * floor ? "**met**" : "**missed**",
              ratio(total / floor)));
    } else {
      out.append("- within 1.1 × the floor per query, 1.05 × in total: not judged, no floor ran\n");
    }
    List<TpchPathRuns> peers =
        paths.stream()
            .filter(path -> !path.seekwell() && path.format() == seekwell.format())
            .toList();
    if (peers.isEmpty()) {
      out.append("- against the peers of its format: not judged, none ran\n");
    } else {
      out.append(
          verdict(
              "no query slower than the fastest peer by more than 5 %",
              over(seekwell::seconds, query -> best(peers, query, TpchPathRuns::seconds), 1.05)));
      out.append(
          verdict(
              "executor CPU per query at most the most frugal peer's",
              over(
                  seekwell::executorCpuSeconds,
                  query -> best(peers, query, TpchPathRuns::executorCpuSeconds),
                  1.0)));
      out.append(
          String.format(
              Locale.ROOT,
              "- executor GC in total (no target): %s s, the most frugal peer's %s s%n",
              decimal(TpchPathRuns.total(queries, seekwell::executorGcSeconds)),
              decimal(
                  peers.stream()
                      .mapToDouble(peer -> TpchPathRuns.total(queries, peer::executorGcSeconds))
                      .min()
                      .orElseThrow())));
    }
    Optional<TpchPathRuns> aal =
        paths.stream().filter(path -> path.path().equals(AAL_OF.get(seekwell.path()))).findFirst();
    if (aal.isPresent()) {
      out.append(
          verdict(
              "GETs per query at most " + aal.get().path() + "'s",
              over(seekwell::gets, aal.get()::gets, 1.0)));
    } else {
      out.append(
          "- GETs per query at most AAL's: not judged, AAL's path of its format did not run\n");
    }
    return out.toString();
  }

  /** The queries whose {@code value} exceeds {@code limit} × {@code reference}, with the ratio. */
  private Map<String, String> over(
      ToDoubleFunction<String> value, ToDoubleFunction<String> reference, double limit) {
    Map<String, String> over = new LinkedHashMap<>();
    for (String query : queries) {
      double measured = value.applyAsDouble(query);
      double bound = reference.applyAsDouble(query);
      if (measured > limit * bound) {
        over.put(query, bound > 0 ? ratio(measured / bound) : decimal(measured) + " against 0");
      }
    }
    return over;
  }

  private String verdict(String target, Map<String, String> missedOn) {
    if (missedOn.isEmpty()) {
      return "- " + target + ": **met**\n";
    }
    List<String> cells = new ArrayList<>();
    missedOn.forEach((query, ratio) -> cells.add(query + " " + ratio));
    return String.format(
        Locale.ROOT,
        "- %s: **missed** on %d of %d queries: %s%n",
        target,
        missedOn.size(),
        queries.size(),
        String.join(", ", cells));
  }

  private static double best(
      List<TpchPathRuns> peers, String query, ToDoubleBiFunction<TpchPathRuns, String> measure) {
    return peers.stream()
        .mapToDouble(peer -> measure.applyAsDouble(peer, query))
        .min()
        .orElseThrow();
  }

  private String perQuery(BiFunction<TpchPathRuns, String, String> cell) {
    List<String> header = new ArrayList<>(List.of("query"));
    paths.forEach(path -> header.add(path.path()));
    MarkdownTable table = new MarkdownTable(header);
    for (String query : queries) {
      List<String> row = new ArrayList<>(List.of(query));
      paths.forEach(path -> row.add(cell.apply(path, query)));
      table.row(row);
    }
    return table.toString();
  }

  private String timeCell(TpchPathRuns path, String query) {
    double seconds = path.seconds(query);
    return path.hasFloor()
        ? decimal(seconds) + " (" + ratio(seconds / path.floorSeconds(query)) + ")"
        : decimal(seconds);
  }

  private static String decimal(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }

  private static String number(double value) {
    return String.format(Locale.ROOT, "%.0f", value);
  }

  private static String ratio(double value) {
    return String.format(Locale.ROOT, "%.2f×", value);
  }
}
