package io.seekwell.bench;

import io.seekwell.bench.SoakSample.Resource;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The soak benchmark's report and verdict: a row per interval, the growth of each resource after
 * the warm-up (the most of the second half of the intervals against the most of the first, within a
 * resource's allowance), and every wrong or failed read.
 */
final class SoakReport {

  /**
   * How much a resource may rise after the warm-up: a share of its level or an amount, the more.
   */
  private static final Map<Resource, double[]> ALLOWANCE = new EnumMap<>(Resource.class);

  static {
    ALLOWANCE.put(Resource.HEAP, new double[] {0.10, 32});
    ALLOWANCE.put(Resource.DIRECT, new double[] {0.10, 16});
    ALLOWANCE.put(Resource.RESIDENT, new double[] {0.10, 64});
    // Pools start and end threads as the load comes and goes: their peaks move by a tenth.
    ALLOWANCE.put(Resource.THREADS, new double[] {0.10, 8});
    ALLOWANCE.put(Resource.FILES, new double[] {0.10, 16});
    ALLOWANCE.put(Resource.CONNECTIONS, new double[] {0, 16});
    ALLOWANCE.put(Resource.DISK, new double[] {0.10, 16});
  }

  private final List<SoakSample> samples;
  private final Map<String, String> settings;
  private final double warmupMinutes;
  private final int threads;
  private final double faultFraction;
  private final List<String> failures;

  SoakReport(
      List<SoakSample> samples,
      Map<String, String> settings,
      double warmupMinutes,
      int threads,
      double faultFraction,
      List<String> failures) {
    this.samples = samples;
    this.settings = settings;
    this.warmupMinutes = warmupMinutes;
    this.threads = threads;
    this.faultFraction = faultFraction;
    this.failures = failures;
  }

  /** What makes the run fail: wrong bytes, failed reads, a resource that grew. */
  List<String> broken() {
    List<String> broken = new ArrayList<>();
    SoakSample last = samples.get(samples.size() - 1);
    if (last.wrong() > 0) {
      broken.add(last.wrong() + " reads returned wrong bytes");
    }
    if (last.failed() > 0 || failures.size() > last.wrong()) {
      broken.add(last.failed() + " reads failed");
    }
    broken.addAll(
        growth().values().stream().filter(verdict -> verdict.startsWith("grew")).toList());
    if (afterWarmup().size() < 2) {
      broken.add("fewer than 2 intervals after the warm-up: nothing to judge growth by");
    }
    return broken;
  }

  private List<SoakSample> afterWarmup() {
    return samples.stream().filter(sample -> sample.minutes() >= warmupMinutes).toList();
  }

  /** Each resource's verdict: flat (with the numbers) or grew (with the numbers). */
  Map<Resource, String> growth() {
    Map<Resource, String> verdicts = new EnumMap<>(Resource.class);
    List<SoakSample> judged = afterWarmup();
    if (judged.size() < 2) {
      return verdicts;
    }
    int half = judged.size() / 2;
    List<SoakSample> first = judged.subList(0, half);
    List<SoakSample> second = judged.subList(half, judged.size());
    for (Map.Entry<Resource, double[]> allowance : ALLOWANCE.entrySet()) {
      Resource resource = allowance.getKey();
      double before = first.stream().mapToDouble(resource::of).max().orElse(0);
      double after = second.stream().mapToDouble(resource::of).max().orElse(0);
      double allowed = before + Math.max(allowance.getValue()[0] * before, allowance.getValue()[1]);
      verdicts.put(
          resource,
          String.format(
              Locale.ROOT,
              "%s %s: at most %.0f in the first half after the warm-up, %.0f in the second"
                  + " (allowed %.0f)",
              after > allowed ? "grew" : "flat",
              resource.label,
              before,
              after,
              allowed));
    }
    return verdicts;
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    SoakSample last = samples.get(samples.size() - 1);
    out.append("# Soak benchmark\n\n")
        .append(
            String.format(
                Locale.ROOT,
                "Run on %s: %d cores, Java %s. %.0f minutes (%.1f of warm-up), %d threads reading"
                    + " through Seekwell's factory, its Iceberg FileIO and its S3A stream factory,"
                    + " one long-lived instance each (the settings below), the disk tier on in one directory;"
                    + " the emulated S3 network (25 ms to the first byte, 90 MB/s per connection)"
                    + " with %.0f %% of the connections faulted (stall before headers, stall in the"
                    + " body, FIN, RST, a slow first byte: one kind per interval, in turn), two"
                    + " requests answered 503 SlowDown and one of 8 objects of 1 MiB overwritten"
                    + " every 5 seconds. The workloads: Parquet projections and full scans"
                    + " (parquet-java with vectored reads), small Parquet files, a task group,"
                    + " sequential and random reads of the raw file, ORC, and four random ranges of"
                    + " an overwritten object in one stream. Every read is checked: a workload's"
                    + " checksum against its healthy run's, an overwritten object's ranges against"
                    + " the versions written (all from one version).%n%n",
                LocalDate.now(),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                last.minutes(),
                warmupMinutes,
                threads,
                faultFraction * 100))
        .append("Seekwell's settings, on all three paths: `")
        .append(settings)
        .append("`.\n\n")
        .append("Reproduce: `./scripts/bench.sh --profile soak --minutes ")
        .append(String.format(Locale.ROOT, "%.0f", last.minutes()))
        .append("`\n\n");
    out.append(
        "| minute | reads | wrong | failed | GETs | heap MB | direct MB | RSS MB | threads"
            + " | open files | connections | disk tier MB | cached MB |\n");
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SoakSample sample : samples) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %.1f | %d | %d | %d | %d | %.0f | %.0f | %.0f | %d | %d | %d | %.0f | %.0f |%n",
              sample.minutes(),
              sample.reads(),
              sample.wrong(),
              sample.failed(),
              sample.gets(),
              Resource.HEAP.of(sample),
              Resource.DIRECT.of(sample),
              Resource.RESIDENT.of(sample),
              sample.process().threads(),
              sample.process().openFiles(),
              sample.connections(),
              Resource.DISK.of(sample),
              Resource.CACHED.of(sample)));
    }
    out.append("\n## Verdict\n\n");
    List<String> broken = broken();
    out.append(broken.isEmpty() ? "Passed: " : "**Failed**: ")
        .append(
            broken.isEmpty()
                ? "no wrong byte, no failed read, nothing grew."
                : String.join("; ", broken))
        .append("\n\n");
    growth().values().forEach(verdict -> out.append("- ").append(verdict).append('\n'));
    if (!failures.isEmpty()) {
      out.append("\nWrong and failed reads:\n\n");
      failures.stream().limit(50).forEach(failure -> out.append("- ").append(failure).append('\n'));
    }
    return out.toString();
  }

  /**
   * Writes the report to {@code markdown} and its chart beside it (the same name, {@code .png}).
   */
  void write(Path markdown) throws IOException {
    Path png = markdown.resolveSibling(markdown.getFileName().toString().replace(".md", ".png"));
    Files.writeString(
        markdown, markdown() + "\n![Resources over the run](" + png.getFileName() + ")\n");
    System.setProperty("java.awt.headless", "true");
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(500)
            .title("Resources over the soak (after a full collection)")
            .xAxisTitle("minutes")
            .yAxisTitle("MB, or count")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    double[] minutes = samples.stream().mapToDouble(SoakSample::minutes).toArray();
    for (Resource resource : Resource.values()) {
      chart.addSeries(
          resource.label, minutes, samples.stream().mapToDouble(resource::of).toArray());
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
