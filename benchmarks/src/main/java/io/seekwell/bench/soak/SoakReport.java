package io.seekwell.bench.soak;

import io.seekwell.bench.report.RunHeader;
import io.seekwell.bench.soak.SoakSample.Resource;
import io.seekwell.common.metrics.Metric;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The soak benchmark's report and verdict: a row per interval, whether each resource grew after the
 * warm-up, and every wrong or failed read. How a resource is judged is its {@link
 * Resource#judgement}: most grew if the least-squares line through the intervals read after the
 * warm-up rises over them by more than their allowance ({@link Resource#allowance}), a slope, so
 * that one peak does not fail a run and a slow leak does; threads grew if their idle level at the
 * end is above their idle level at the warm-up's end by more than that; a cache grew if it ever
 * held more than its bound.
 */
final class SoakReport {

  /** How the soak ran. */
  record Settings(
      Map<String, String> seekwell,
      double minutes,
      double warmupMinutes,
      int threads,
      double faultFraction,
      int versionedObjects,
      int versionedLength,
      long memoryLimitBytes,
      long diskLimitBytes,
      double idleSeconds) {}

  private final List<SoakSample> samples;
  private final SoakRun.Tally tally;
  private final List<String> failures;
  private final Settings settings;

  SoakReport(
      List<SoakSample> samples, SoakRun.Tally tally, List<String> failures, Settings settings) {
    this.samples = samples;
    this.tally = tally;
    this.failures = failures;
    this.settings = settings;
  }

  /** What makes the run fail: wrong bytes, failed reads, a resource that grew. */
  List<String> broken() {
    List<String> broken = new ArrayList<>();
    if (tally.wrong() > 0) {
      broken.add(tally.wrong() + " reads returned wrong bytes");
    }
    if (tally.failed() > 0) {
      broken.add(tally.failed() + " reads failed");
    }
    if (tally.overwrittenRight() == 0) {
      broken.add("no read of an overwritten object succeeded");
    }
    if (tally.freshRead() == 0) {
      broken.add("no new object was read");
    }
    if (judged().size() < 3) {
      broken.add("fewer than 3 intervals after the warm-up: nothing to judge growth by");
    }
    if (idle().size() != 2) {
      broken.add(idle().size() + " idle samples, not 2 (at the warm-up's end and at the end)");
    }
    growth().values().stream().filter(verdict -> verdict.startsWith("grew")).forEach(broken::add);
    return broken;
  }

  /** The intervals read after the warm-up (not the idle samples). */
  private List<SoakSample> judged() {
    return samples.stream()
        .filter(sample -> !sample.idle() && sample.minutes() >= settings.warmupMinutes())
        .toList();
  }

  /** The samples taken idle: at the warm-up's end, and at the end. */
  private List<SoakSample> idle() {
    return samples.stream().filter(SoakSample::idle).toList();
  }

  /** Each resource's verdict: flat or grew, and what it was judged by. */
  Map<Resource, String> growth() {
    Map<Resource, String> verdicts = new EnumMap<>(Resource.class);
    List<SoakSample> judged = judged();
    if (judged.size() < 3) {
      return verdicts;
    }
    for (Resource resource : Resource.values()) {
      switch (resource.judgement) {
        case TREND -> verdicts.put(resource, trend(resource, judged));
        case IDLE -> {
          if (idle().size() == 2) {
            verdicts.put(resource, idleLevels(resource, judged));
          }
        }
        case BOUND -> verdicts.put(resource, bound(resource));
      }
    }
    return verdicts;
  }

  private static String trend(Resource resource, List<SoakSample> judged) {
    double[] minutes = judged.stream().mapToDouble(SoakSample::minutes).toArray();
    double span = minutes[minutes.length - 1] - minutes[0];
    double[] levels = judged.stream().mapToDouble(resource::of).toArray();
    double mean = Arrays.stream(levels).average().orElse(0);
    double rise = slope(minutes, levels) * span;
    double allowed = resource.allowance(mean);
    return String.format(
        Locale.ROOT,
        "%s %s: %+.1f over the %.1f wall-clock minutes after the warm-up, around %.0f (allowed %.0f)",
        rise > allowed ? "grew" : "flat",
        resource.label,
        rise,
        span,
        mean,
        allowed);
  }

  private String idleLevels(Resource resource, List<SoakSample> judged) {
    double before = resource.of(idle().get(0));
    double after = resource.of(idle().get(1));
    double allowed = resource.allowance(before);
    DoubleSummaryStatistics reading = judged.stream().mapToDouble(resource::of).summaryStatistics();
    return String.format(
        Locale.ROOT,
        "%s %s: idle %.0f at the warm-up's end, %.0f at the end, %+.0f (allowed %.0f;"
            + " idle is %.0f s with no task running, past the pools' keep-alive); %.0f-%.0f while"
            + " reading",
        after - before > allowed ? "grew" : "flat",
        resource.label,
        before,
        after,
        after - before,
        allowed,
        settings.idleSeconds(),
        reading.getMin(),
        reading.getMax());
  }

  private String bound(Resource resource) {
    long boundBytes =
        switch (resource) {
          case CACHED -> settings.memoryLimitBytes();
          case DISK -> settings.diskLimitBytes();
          default -> throw new IllegalArgumentException(resource + " has no bound");
        };
    double bound = boundBytes / SoakSample.MB;
    DoubleSummaryStatistics levels = samples.stream().mapToDouble(resource::of).summaryStatistics();
    return String.format(
        Locale.ROOT,
        "%s %s: %.0f-%.0f over the run, its bound %.0f (%d MiB; a cache fills and empties within"
            + " it)",
        levels.getMax() > bound ? "grew" : "flat",
        resource.label,
        levels.getMin(),
        levels.getMax(),
        bound,
        boundBytes >> 20);
  }

  /**
   * What the run fetched and did not use: the rest of the responses readers cut short (every
   * path's), and what Seekwell's paths prefetched and dropped unread.
   */
  String bytes() {
    SoakSample last = samples.get(samples.size() - 1);
    long abandoned = last.responseBytes() - last.receivedBytes();
    int prefetched = SoakRun.COUNTERS.indexOf(Metric.PREFETCHED_BYTES);
    int unused = SoakRun.COUNTERS.indexOf(Metric.PREFETCHED_BYTES_UNUSED);
    return String.format(
        Locale.ROOT,
        "Bytes: the GET responses carried %.0f MB, of which %.0f MB reached the clients and"
            + " %.0f MB (%.1f %%) were abandoned: cut short by the faults, stall cuts, hedges'"
            + " losers, streams closed early and proxy restarts (every path's; the latency proxy"
            + " keeps them). "
            + "Seekwell's core and Iceberg paths asked for %.0f MB ahead of reads and dropped"
            + " %.0f MB of it unread (%.1f %%; `PREFETCHED_BYTES`, `PREFETCHED_BYTES_UNUSED`).",
        last.responseBytes() / SoakSample.MB,
        last.receivedBytes() / SoakSample.MB,
        abandoned / SoakSample.MB,
        percent(abandoned, last.responseBytes()),
        last.counters()[prefetched] / SoakSample.MB,
        last.counters()[unused] / SoakSample.MB,
        percent(last.counters()[unused], last.counters()[prefetched]));
  }

  /** The JVM's CPU over the whole run, a minute and a read. */
  String cpu() {
    SoakSample first = samples.get(0);
    SoakSample last = samples.get(samples.size() - 1);
    double seconds = (last.process().cpuNanos() - first.process().cpuNanos()) / 1e9;
    double minutes = last.minutes() - first.minutes();
    return String.format(
        Locale.ROOT,
        "CPU: %.0f s over %.1f wall-clock minutes (%.1f s a minute), %.1f ms a read checked (the"
            + " benchmark JVM's every thread; no target).",
        seconds,
        minutes,
        minutes > 0 ? seconds / minutes : 0,
        tally.reads() > 0 ? seconds * 1e3 / tally.reads() : 0);
  }

  /**
   * The JVM's CPU seconds per wall-clock minute from {@code previous} to {@code sample}; "–" for
   * the first row.
   */
  private static String cpuPerMinute(SoakSample previous, SoakSample sample) {
    if (previous == null || sample.minutes() <= previous.minutes()) {
      return "–";
    }
    double seconds = (sample.process().cpuNanos() - previous.process().cpuNanos()) / 1e9;
    return String.format(Locale.ROOT, "%.1f", seconds / (sample.minutes() - previous.minutes()));
  }

  private static double percent(long part, long whole) {
    return whole == 0 ? 0 : 100.0 * part / whole;
  }

  /** The least-squares slope of {@code y} over {@code x}. */
  private static double slope(double[] x, double[] y) {
    double meanX = Arrays.stream(x).average().orElse(0);
    double meanY = Arrays.stream(y).average().orElse(0);
    double covariance = 0;
    double variance = 0;
    for (int i = 0; i < x.length; i++) {
      covariance += (x[i] - meanX) * (y[i] - meanY);
      variance += (x[i] - meanX) * (x[i] - meanX);
    }
    return variance == 0 ? 0 : covariance / variance;
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("# Soak benchmark\n\n")
        .append(
            String.format(
                Locale.ROOT,
                "%s. %.0f minutes of reading (%.1f of warm-up) in %.1f minutes of wall-clock time (with the idle samples and the proxy's restarts), %d threads reading"
                    + " through Seekwell's factory, its Iceberg FileIO and its S3A stream factory,"
                    + " one long-lived instance each, the disk tier on in one directory; the"
                    + " emulated S3 network (25 ms to the first byte, 90 MB/s per connection) with"
                    + " %.0f %% of the connections faulted (stall before headers, stall in the"
                    + " body, FIN, RST, a slow first byte: one kind per interval, in turn); every 5"
                    + " seconds two requests answered 503 SlowDown and one of %d objects of %d KiB"
                    + " overwritten. The workloads: Parquet projections and full scans"
                    + " (parquet-java, vectored reads), small Parquet files, a task group,"
                    + " sequential and random reads of the raw file, ORC, and four random ranges of"
                    + " an overwritten object in one stream; and every second a new object of 256"
                    + " KiB, read whole once (through Seekwell's factory and its S3A stream factory"
                    + " in turn) and deleted, so that what a path keeps per object read would"
                    + " grow. Every read is checked: a workload"
                    + " against the checksum of Iceberg's own S3FileIO reading the store directly,"
                    + " an overwritten object's ranges against the versions written, all four of"
                    + " one version.%n%n",
                RunHeader.runOn(),
                settings.minutes(),
                settings.warmupMinutes(),
                samples.isEmpty() ? 0 : samples.get(samples.size() - 1).minutes(),
                settings.threads(),
                settings.faultFraction() * 100,
                settings.versionedObjects(),
                settings.versionedLength() / 1024))
        .append("Seekwell's settings, on all three paths: `")
        .append(settings.seekwell())
        .append("`.\n\n")
        .append("Reproduce: `./scripts/bench.sh --profile soak --minutes ")
        .append(String.format(Locale.ROOT, "%.0f", settings.minutes()))
        .append("`\n\n")
        .append(
            "Heap is what a full collection left; direct memory is the JVM's direct buffers (the"
                + " disk tier's mapped files, bounded by their count, are in the resident set);"
                + " connections are those the proxy holds; the disk tier's size is what `du`"
                + " counts, bounded by the three paths' slots (`max.size / max.slots` each);"
                + " cached is the core factory's block cache; MB abandoned is what the GET"
                + " responses so far carried and did not deliver (or not yet); CPU s / min is"
                + " the benchmark JVM's CPU seconds (every thread: the three paths, the checks,"
                + " the samples' full collections) per wall-clock minute since the row before,"
                + " at most 60 per core. The counters are"
                + " the core"
                + " and Iceberg paths' (S3A's stream factory reports to S3A's own statistics),"
                + String.format(
                    Locale.ROOT,
                    " the rows marked idle are taken with no task running for %.0f seconds (past"
                        + " the pools' keep-alive): at the warm-up's end and at the end, the workers"
                        + " held between tasks.%n%n",
                    settings.idleSeconds()));
    out.append(
        "| minute | reads | wrong | failed | GETs | retries | hedges | stall cuts | resumes"
            + " | disk hits | other slots' hits | heap MB | direct MB | RSS MB | threads"
            + " | open files | connections | disk tier MB | cached MB | MB abandoned | CPU s / min |\n");
    out.append(
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    SoakSample previous = null;
    for (SoakSample sample : samples) {
      long[] counters = sample.counters();
      out.append(
          String.format(
              Locale.ROOT,
              "| %.1f%s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %.0f | %.0f | %.0f"
                  + " | %d | %d | %d | %.0f | %.0f | %.0f | %s |%n",
              sample.minutes(),
              sample.idle() ? " idle" : "",
              sample.reads(),
              sample.wrong(),
              sample.failed(),
              sample.gets(),
              counters[0],
              counters[1],
              counters[2],
              counters[3],
              counters[4],
              counters[5],
              Resource.HEAP.of(sample),
              Resource.DIRECT.of(sample),
              Resource.RESIDENT.of(sample),
              sample.process().threads(),
              sample.process().openFiles(),
              sample.connections(),
              Resource.DISK.of(sample),
              Resource.CACHED.of(sample),
              (sample.responseBytes() - sample.receivedBytes()) / SoakSample.MB,
              cpuPerMinute(previous, sample)));
      previous = sample;
    }
    out.append("\n## Verdict\n\n");
    List<String> broken = broken();
    out.append(
            broken.isEmpty()
                ? "Passed: no wrong byte, no failed read, nothing grew."
                : "**Failed**: " + String.join("; ", broken))
        .append(
            String.format(
                Locale.ROOT,
                " %d reads checked, %d wrong, %d failed; %d reads of overwritten objects right,"
                    + " %d streams failed with ObjectChangedException as their object changed"
                    + " under them (as documented: a stream never mixes versions); %d new objects"
                    + " read once; the latency proxy restarted %d times between tasks (it keeps"
                    + " the rest of abandoned responses).%n%n",
                tally.reads(),
                tally.wrong(),
                tally.failed(),
                tally.overwrittenRight(),
                tally.changed(),
                tally.freshRead(),
                tally.proxyRestarts()));
    growth().values().forEach(verdict -> out.append("- ").append(verdict).append('\n'));
    out.append('\n').append(bytes()).append('\n');
    out.append('\n').append(cpu()).append('\n');
    if (!failures.isEmpty()) {
      out.append("\nWrong and failed reads (the first 50):\n\n");
      failures.forEach(failure -> out.append("- ").append(failure).append('\n'));
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
            .title("Resources over the soak (heap after a full collection)")
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
