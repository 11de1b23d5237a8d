package io.seekwell.bench;

import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The Markdown report: per workload and path, times, requests, bytes and ratios to AAL. */
final class Report {

  private Report() {}

  static String markdown(
      Map<Workload, Map<String, List<Benchmark.Sample>>> results,
      Map<String, String> options,
      Dataset.Scale scale,
      int iterations) {
    StringBuilder out = new StringBuilder();
    out.append("# Benchmarks\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Run on %s: %d cores, %d MiB max heap, Java %s. Profile `%s`, scale `%s`, %d cold"
                + " iteration(s) per path after %d warm-up(s) (fresh client and factory each time; the"
                + " order of the paths rotates every iteration, and each iteration starts with the"
                + " latency proxy started afresh and once the machine's CPU has been idle for a"
                + " second, so that what one path left behind does not slow down the next). GETs,"
                + " HEADs and bytes are counted by an SDK interceptor on each path's client; times are"
                + " seconds (median, min–max).\n\n",
            LocalDate.now(),
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory() >> 20,
            System.getProperty("java.version"),
            options.getOrDefault("profile", "loopback"),
            scale.name().toLowerCase(Locale.ROOT),
            iterations,
            Benchmark.warmups(options)));
    out.append("Reproduce: `./scripts/bench.sh")
        .append(scale == Dataset.Scale.QUICK ? " --quick" : "")
        .append(" --profile ")
        .append(options.getOrDefault("profile", "loopback"))
        .append(passedThrough(options))
        .append("`\n\n");
    out.append(
        "| workload | path | seconds (median, min–max) | GETs | HEADs | MB | peak heap MB"
            + " | time / AAL | GETs / AAL |\n");
    out.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<Workload, Map<String, List<Benchmark.Sample>>> entry : results.entrySet()) {
      Map<String, List<Benchmark.Sample>> byPath = entry.getValue();
      List<Benchmark.Sample> aal = byPath.get("aal");
      for (Map.Entry<String, List<Benchmark.Sample>> path : byPath.entrySet()) {
        List<Benchmark.Sample> samples = path.getValue();
        double median = median(samples.stream().mapToDouble(Benchmark.Sample::seconds).toArray());
        double gets = median(samples.stream().mapToDouble(Benchmark.Sample::gets).toArray());
        out.append(
            String.format(
                Locale.ROOT,
                "| %s %s | %s | %.2f (%.2f–%.2f) | %.0f | %.0f | %.1f | %d | %s | %s |\n",
                entry.getKey(),
                entry.getKey().description,
                path.getKey(),
                median,
                samples.stream().mapToDouble(Benchmark.Sample::seconds).min().orElse(0),
                samples.stream().mapToDouble(Benchmark.Sample::seconds).max().orElse(0),
                gets,
                median(samples.stream().mapToDouble(Benchmark.Sample::heads).toArray()),
                median(samples.stream().mapToDouble(Benchmark.Sample::bytes).toArray()) / 1e6,
                samples.stream().mapToLong(Benchmark.Sample::peakHeap).max().orElse(0) >> 20,
                aal == null
                    ? "–"
                    : ratio(
                        median,
                        median(aal.stream().mapToDouble(Benchmark.Sample::seconds).toArray())),
                aal == null
                    ? "–"
                    : ratio(
                        gets, median(aal.stream().mapToDouble(Benchmark.Sample::gets).toArray()))));
      }
    }
    out.append(connectorsAgainstTheirStacks(results));
    return out.toString();
  }

  /** Each Seekwell connector path with the stack it plugs into, and that stack's default stream. */
  static final Map<String, String> STACK_DEFAULTS =
      Map.of("seekwell-iceberg", "iceberg-default", "seekwell-s3a", "s3a-classic");

  /**
   * A table of the workloads where a connector path and its stack's default stream both ran: their
   * medians and the ratio; empty if there is none.
   */
  private static String connectorsAgainstTheirStacks(
      Map<Workload, Map<String, List<Benchmark.Sample>>> results) {
    StringBuilder rows = new StringBuilder();
    for (Map.Entry<Workload, Map<String, List<Benchmark.Sample>>> entry : results.entrySet()) {
      for (String connector : List.of("seekwell-iceberg", "seekwell-s3a")) {
        List<Benchmark.Sample> seekwell = entry.getValue().get(connector);
        List<Benchmark.Sample> stack = entry.getValue().get(STACK_DEFAULTS.get(connector));
        if (seekwell == null || stack == null) {
          continue;
        }
        double mine = median(seekwell, Benchmark.Sample::seconds);
        double theirs = median(stack, Benchmark.Sample::seconds);
        rows.append(
            String.format(
                Locale.ROOT,
                "| %s %s | %s | %.2f | %s | %.2f | %s |\n",
                entry.getKey(),
                entry.getKey().description,
                STACK_DEFAULTS.get(connector),
                theirs,
                connector,
                mine,
                ratio(mine, theirs)));
      }
    }
    if (rows.isEmpty()) {
      return "";
    }
    return "\n## Each connector against its stack's default stream\n\n"
        + "Seconds (median) of each Seekwell connector path and of the stream its stack uses"
        + " without Seekwell, in the same run.\n\n"
        + "| workload | stack default | seconds | Seekwell path | seconds | Seekwell / default |\n"
        + "|---|---|---|---|---|---|\n"
        + rows;
  }

  /** The options a run was given besides the defaults bench.sh sets, as they were typed. */
  private static String passedThrough(Map<String, String> options) {
    StringBuilder out = new StringBuilder();
    for (String name : List.of("workloads", "paths", "seekwell", "report")) {
      if (options.containsKey(name) && !options.get(name).endsWith("benchmarks-quick.md")) {
        out.append(" --").append(name).append(' ').append(options.get(name));
      }
    }
    return out.toString();
  }

  private static String ratio(double value, double reference) {
    return reference == 0 ? "–" : String.format(Locale.ROOT, "%.2f", value / reference);
  }

  /** The median of {@code measure} over {@code samples}. */
  static double median(List<Benchmark.Sample> samples, ToDoubleFunction<Benchmark.Sample> measure) {
    return median(samples.stream().mapToDouble(measure).toArray());
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
