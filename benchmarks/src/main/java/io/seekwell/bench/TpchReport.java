package io.seekwell.bench;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The TPC-H benchmark's report: totals and per-query tables of every path (wall time against its
 * own loopback floor, GETs, bytes, CPU), whether every path answered every query alike, and the
 * targets of Seekwell's paths, met or missed. Not thread-safe: one run builds it.
 */
final class TpchReport {

  /** Seekwell's path and the peer it must need no more GETs than (AAL on the same format). */
  private static final Map<String, String> AAL_OF =
      Map.of("seekwell-iceberg", "iceberg-aal", "seekwell-s3a", "s3a-analytics");

  private static final int CHART_WIDTH = 900;
  private static final int CHART_HEIGHT = 480;

  private final String setup;
  private final Options options;
  private final List<String> queries;
  private final Map<String, TpchPathRuns> paths;

  /**
   * A report of {@code paths}' runs of {@code queries}, under a first paragraph {@code setup} (what
   * ran, where, with which settings and how to reproduce it).
   */
  TpchReport(String setup, Options options, List<String> queries, List<TpchPathRuns> paths) {
    this.setup = setup;
    this.options = options;
    this.queries = List.copyOf(queries);
    this.paths = new LinkedHashMap<>();
    paths.forEach(path -> this.paths.put(path.path(), path));
  }

  /**
   * What is wrong with the answers: a query answered differently by two paths (or two rounds, or
   * the floor), or Q1 not answering its four groups (the data did not load); empty if nothing.
   */
  List<String> answerProblems() {
    List<String> problems = new ArrayList<>();
    for (String query : queries) {
      Map<String, List<String>> byDigest = new LinkedHashMap<>();
      for (TpchPathRuns path : paths.values()) {
        for (TpchQueryRun run : runs(path, query)) {
          byDigest
              .computeIfAbsent(
                  run.digest() + " (" + run.rows() + " rows)", digest -> new ArrayList<>())
              .add(path.path());
        }
      }
      if (byDigest.size() > 1) {
        Map<String, TreeSet<String>> named = new LinkedHashMap<>();
        byDigest.forEach((digest, names) -> named.put(digest, new TreeSet<>(names)));
        problems.add(query + " is answered differently: " + named);
      }
    }
    for (TpchPathRuns path : paths.values()) {
      runs(path, "q01").stream()
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
    return problems;
  }

  private static List<TpchQueryRun> runs(TpchPathRuns path, String query) {
    List<TpchQueryRun> runs = new ArrayList<>();
    path.emulated().stream().filter(run -> run.query().equals(query)).forEach(runs::add);
    path.floor().stream().filter(run -> run.query().equals(query)).forEach(runs::add);
    return runs;
  }

  /** The report in Markdown. */
  String markdown() {
    StringBuilder out = new StringBuilder("# TPC-H in Spark\n\n").append(setup).append("\n\n");
    List<String> problems = answerProblems();
    out.append("## Answers\n\n");
    if (problems.isEmpty()) {
      out.append(
          String.format(
              Locale.ROOT,
              "Every path answered each of the %d queries alike, in every round and on the floor.%n%n",
              queries.size()));
    } else {
      out.append("**The paths' answers differ: the run failed.**\n\n");
      problems.forEach(problem -> out.append("- ").append(problem).append('\n'));
      out.append('\n');
    }
    out.append("## Totals\n\n").append(totals()).append('\n');
    out.append("## Targets\n\n").append(options.targetsOrSmokeNote(this::targets)).append('\n');
    out.append("## Wall time per query\n\n")
        .append(
            "Seconds, the median of the rounds; with the floor, the time as a multiple of the"
                + " path's own time on loopback.\n\n")
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
    return out.toString();
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
            "executor CPU s");
    for (TpchPathRuns path : paths.values()) {
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
          decimal(TpchPathRuns.total(queries, path::executorCpuSeconds)));
    }
    return table.toString();
  }

  private Optional<Double> floorTotal(TpchPathRuns path) {
    return path.hasFloor()
        ? Optional.of(TpchPathRuns.total(queries, path::floorSeconds))
        : Optional.empty();
  }

  private String targets() {
    List<TpchPathRuns> peers = paths.values().stream().filter(path -> !path.seekwell()).toList();
    StringBuilder out = new StringBuilder();
    for (TpchPathRuns seekwell : paths.values()) {
      if (!seekwell.seekwell()) {
        continue;
      }
      out.append("**").append(seekwell.path()).append("**\n\n");
      if (seekwell.hasFloor()) {
        double total =
            TpchPathRuns.total(queries, seekwell::seconds) / floorTotal(seekwell).orElseThrow();
        out.append(
            verdict(
                "every query within 1.1 × its floor",
                over(
                    seekwell,
                    query -> seekwell.seconds(query) / seekwell.floorSeconds(query),
                    1.1)));
        out.append(
            String.format(
                Locale.ROOT,
                "- in total within 1.05 × the floor: %s (%s)%n",
                total <= 1.05 ? "**met**" : "**missed**",
                ratio(total)));
      }
      if (!peers.isEmpty()) {
        out.append(
            verdict(
                "no query slower than the fastest peer by more than 5 %",
                over(
                    seekwell,
                    query -> seekwell.seconds(query) / best(peers, query, TpchPathRuns::seconds),
                    1.05)));
        out.append(
            verdict(
                "executor CPU per query at most the most frugal peer's",
                over(
                    seekwell,
                    query ->
                        seekwell.executorCpuSeconds(query)
                            / best(peers, query, TpchPathRuns::executorCpuSeconds),
                    1.0)));
      }
      TpchPathRuns aal = paths.get(AAL_OF.get(seekwell.path()));
      if (aal != null) {
        out.append(
            verdict(
                "GETs per query at most " + aal.path() + "'s",
                over(seekwell, query -> seekwell.gets(query) / Math.max(1, aal.gets(query)), 1.0)));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The queries whose {@code ratio} exceeds {@code limit}, with it. */
  private Map<String, Double> over(
      TpchPathRuns path, ToDoubleFunction<String> ratio, double limit) {
    Map<String, Double> over = new LinkedHashMap<>();
    for (String query : queries) {
      double value = ratio.applyAsDouble(query);
      if (value > limit) {
        over.put(query, value);
      }
    }
    return over;
  }

  private String verdict(String target, Map<String, Double> missedOn) {
    if (missedOn.isEmpty()) {
      return "- " + target + ": **met**\n";
    }
    List<String> cells = new ArrayList<>();
    missedOn.forEach((query, value) -> cells.add(query + " " + ratio(value)));
    return String.format(
        Locale.ROOT,
        "- %s: **missed** on %d of %d queries: %s%n",
        target,
        missedOn.size(),
        queries.size(),
        String.join(", ", cells));
  }

  private static double best(
      List<TpchPathRuns> peers,
      String query,
      java.util.function.ToDoubleBiFunction<TpchPathRuns, String> measure) {
    return peers.stream()
        .mapToDouble(peer -> measure.applyAsDouble(peer, query))
        .min()
        .orElseThrow();
  }

  private String perQuery(java.util.function.BiFunction<TpchPathRuns, String, String> cell) {
    List<String> header = new ArrayList<>(List.of("query"));
    header.addAll(paths.keySet());
    MarkdownTable table = new MarkdownTable(header);
    for (String query : queries) {
      List<String> row = new ArrayList<>(List.of(query));
      paths.values().forEach(path -> row.add(cell.apply(path, query)));
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

  /** Writes the report to {@code markdown} and its chart beside it ({@code .png}). */
  void write(Path markdown) throws IOException {
    Path png = markdown.resolveSibling(markdown.getFileName().toString().replace(".md", ".png"));
    Files.writeString(
        markdown,
        markdown() + "\n![Wall time per query and in total](" + png.getFileName() + ")\n");
    System.setProperty("java.awt.headless", "true");
    BufferedImage perQuery = BitmapEncoder.getBufferedImage(perQueryChart());
    BufferedImage totals = BitmapEncoder.getBufferedImage(totalsChart());
    BufferedImage both =
        new BufferedImage(CHART_WIDTH, 2 * CHART_HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D graphics = both.createGraphics();
    try {
      graphics.drawImage(perQuery, 0, 0, null);
      graphics.drawImage(totals, 0, CHART_HEIGHT, null);
    } finally {
      graphics.dispose();
    }
    ImageIO.write(both, "png", png.toFile());
  }

  private CategoryChart perQueryChart() {
    CategoryChart chart = chart("Wall time per query, through the emulated S3 network", "seconds");
    for (TpchPathRuns path : paths.values()) {
      chart.addSeries(path.path(), queries, queries.stream().map(path::seconds).toList());
    }
    return chart;
  }

  private CategoryChart totalsChart() {
    CategoryChart chart =
        chart("All queries: through the emulated S3 network, and on loopback", "seconds");
    List<String> names = List.copyOf(paths.keySet());
    chart.addSeries(
        "emulated S3",
        names,
        paths.values().stream().map(path -> TpchPathRuns.total(queries, path::seconds)).toList());
    if (paths.values().stream().allMatch(TpchPathRuns::hasFloor)) {
      chart.addSeries(
          "loopback floor",
          names,
          paths.values().stream().map(path -> floorTotal(path).orElseThrow()).toList());
    }
    return chart;
  }

  private static CategoryChart chart(String title, String yAxis) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(CHART_WIDTH)
            .height(CHART_HEIGHT)
            .title(title)
            .yAxisTitle(yAxis)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    return chart;
  }
}
