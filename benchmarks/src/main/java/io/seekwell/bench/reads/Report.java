package io.seekwell.bench.reads;

import io.seekwell.bench.Options;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.report.MarkdownTable;
import io.seekwell.bench.report.RunHeader;
import io.seekwell.bench.report.Spread;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** The Markdown report: per workload and path, times, requests, bytes and ratios to AAL. */
final class Report {

  private Report() {}

  /**
   * The whole report of the main benchmark: the table, the paths not measured (skipped with {@code
   * --skip}, or failed) and the targets.
   */
  static String markdown(
      Map<Workload, Map<String, List<Sample>>> results,
      Options options,
      Dataset.Scale scale,
      int iterations,
      Dataset data,
      List<String> skipped) {
    String notMeasured =
        skipped.isEmpty()
            ? ""
            : "\nNot measured (skipped with `--skip`, or failed): "
                + String.join(", ", skipped)
                + (options.has("skip-reason") ? ". " + options.required("skip-reason") : "")
                + "\n";
    return tables(results, options, scale, iterations)
        + notMeasured
        + "\n"
        + options.targetsOrSmokeNote(
            () ->
                Targets.markdown(
                    results,
                    data.projectionBytes,
                    data.orcStripes,
                    data.smallFiles(),
                    Benchmark.isLoopback(options)));
  }

  /** The heading, how the run was made, and a row per workload and path. */
  static String tables(
      Map<Workload, Map<String, List<Sample>>> results,
      Options options,
      Dataset.Scale scale,
      int iterations) {
    StringBuilder out = new StringBuilder();
    out.append("# Benchmarks\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%s, %d MiB max heap. Profile `%s`, scale `%s`, %d cold"
                + " iteration(s) per path after %d warm-up(s) (fresh client and factory each time; the"
                + " order of the paths rotates every iteration, and each iteration starts with the"
                + " latency proxy started afresh and once the machine's CPU has been idle for a"
                + " second, so that what one path left behind does not slow down the next). GETs,"
                + " HEADs and bytes are counted by an SDK interceptor on each path's client; times are"
                + " seconds (median, min–max). Client CPU is the median CPU time of all of the"
                + " benchmark JVM's threads from opening the path's clients to closing them (the"
                + " store and the proxy run in processes of their own), and each Seekwell path's is"
                + " also given over the lowest of the peers' it replaces in its stack (%s) in the"
                + " same workload.\n\n",
            RunHeader.runOn(),
            Runtime.getRuntime().maxMemory() >> 20,
            options.text("profile", "loopback"),
            scale.name().toLowerCase(Locale.ROOT),
            iterations,
            Benchmark.warmups(options),
            stackPeers()));
    out.append("Reproduce: `./scripts/bench.sh")
        .append(scale == Dataset.Scale.QUICK ? " --quick" : "")
        .append(" --profile ")
        .append(options.text("profile", "loopback"))
        .append(passedThrough(options, scale))
        .append("`\n\n");
    MarkdownTable table =
        new MarkdownTable(
            "workload",
            "path",
            "seconds (median, min–max)",
            "GETs",
            "HEADs",
            "MB",
            "peak heap MB",
            "client CPU s",
            "time / AAL",
            "GETs / AAL",
            "CPU / most frugal peer of its stack");
    for (Map.Entry<Workload, Map<String, List<Sample>>> entry : results.entrySet()) {
      Map<String, List<Sample>> byPath = entry.getValue();
      List<Sample> aal = byPath.get(Peer.AAL.pathName());
      for (Map.Entry<String, List<Sample>> path : byPath.entrySet()) {
        List<Sample> samples = path.getValue();
        Spread seconds = Spread.of(samples, Sample::seconds);
        double gets = Spread.median(samples, Sample::gets);
        table.row(
            entry.getKey() + " " + entry.getKey().description,
            path.getKey(),
            seconds.cell(),
            String.format(Locale.ROOT, "%.0f", gets),
            String.format(Locale.ROOT, "%.0f", Spread.median(samples, Sample::heads)),
            String.format(Locale.ROOT, "%.1f", Spread.median(samples, Sample::bytes) / 1e6),
            samples.stream().mapToLong(Sample::peakHeap).max().orElse(0) >> 20,
            String.format(Locale.ROOT, "%.2f", Spread.median(samples, Sample::cpuSeconds)),
            aal == null ? "–" : ratio(seconds.median(), Spread.median(aal, Sample::seconds)),
            aal == null ? "–" : ratio(gets, Spread.median(aal, Sample::gets)),
            cpuAgainstPeers(byPath, path.getKey()));
      }
    }
    out.append(table);
    out.append(connectorsAgainstTheirStacks(results));
    return out.toString();
  }

  /**
   * Seekwell's path in each stack and the peers it replaces there ({@link Peer#peers}), as the
   * heading names them: {@code seekwell: aal; seekwell-iceberg: iceberg-default; …}.
   */
  private static String stackPeers() {
    List<String> stacks = new ArrayList<>();
    for (Peer.Stack stack : Peer.Stack.values()) {
      List<String> peers = stack.seekwell().peers().stream().map(Peer::pathName).toList();
      String last = peers.get(peers.size() - 1);
      String others = String.join(", ", peers.subList(0, peers.size() - 1));
      stacks.add(stack.seekwell() + ": " + (others.isEmpty() ? last : others + " and " + last));
    }
    return String.join("; ", stacks);
  }

  /**
   * The lowest median client CPU of the peers of {@code path}'s stack in one workload, or null if
   * none of them ran.
   */
  static Double frugalPeerCpu(Map<String, List<Sample>> byPath, String path) {
    return Peer.find(path).map(Peer::peers).orElse(List.of()).stream()
        .map(peer -> byPath.get(peer.pathName()))
        .filter(Objects::nonNull)
        .map(samples -> Spread.median(samples, Sample::cpuSeconds))
        .min(Double::compare)
        .orElse(null);
  }

  /**
   * Whether {@code path} is a Seekwell path measured as the peers are (not through the proxy
   * without its latency, nor on the store directly), so that its CPU compares with theirs.
   */
  static boolean comparedWithPeers(String path) {
    return Peer.namesSeekwell(path)
        && !path.endsWith(Benchmark.NO_LATENCY)
        && !path.endsWith(Benchmark.DIRECT);
  }

  /** The CPU of {@code path} over its stack's most frugal peer's, or "–". */
  private static String cpuAgainstPeers(Map<String, List<Sample>> byPath, String path) {
    Double peer = frugalPeerCpu(byPath, path);
    if (peer == null || !comparedWithPeers(path)) {
      return "–";
    }
    return ratio(Spread.median(byPath.get(path), Sample::cpuSeconds), peer);
  }

  /**
   * A table of the workloads where a connector path and its stack's default stream both ran: their
   * medians and the ratio; empty if there is none.
   */
  private static String connectorsAgainstTheirStacks(
      Map<Workload, Map<String, List<Sample>>> results) {
    MarkdownTable table =
        new MarkdownTable(
            "workload",
            "stack default",
            "seconds",
            "Seekwell path",
            "seconds",
            "Seekwell / default");
    for (Map.Entry<Workload, Map<String, List<Sample>>> entry : results.entrySet()) {
      for (Peer connector : Peer.connectors()) {
        Peer stackDefault = connector.stackDefault().orElseThrow();
        List<Sample> seekwell = entry.getValue().get(connector.pathName());
        List<Sample> stack = entry.getValue().get(stackDefault.pathName());
        if (seekwell == null || stack == null) {
          continue;
        }
        double mine = Spread.median(seekwell, Sample::seconds);
        double theirs = Spread.median(stack, Sample::seconds);
        table.row(
            entry.getKey() + " " + entry.getKey().description,
            stackDefault,
            String.format(Locale.ROOT, "%.2f", theirs),
            connector,
            String.format(Locale.ROOT, "%.2f", mine),
            ratio(mine, theirs));
      }
    }
    if (table.isEmpty()) {
      return "";
    }
    return "\n## Each connector against its stack's default stream\n\n"
        + "Seconds (median) of each Seekwell connector path and of the stream its stack uses"
        + " without Seekwell, in the same run.\n\n"
        + table;
  }

  /**
   * The options a run was given that shape what it measured; a quick run's iterations, warm-ups and
   * report are those {@code --quick} sets.
   */
  private static String passedThrough(Options options, Dataset.Scale scale) {
    List<String> names =
        scale == Dataset.Scale.QUICK
            ? List.of("workloads", "paths", "seekwell")
            : List.of("workloads", "paths", "iterations", "warmup", "seekwell", "report");
    StringBuilder out = new StringBuilder();
    for (String name : names) {
      if (options.has(name)) {
        out.append(" --").append(name).append(' ').append(options.required(name));
      }
    }
    return out.toString();
  }

  private static String ratio(double value, double reference) {
    return reference == 0 ? "–" : String.format(Locale.ROOT, "%.2f", value / reference);
  }
}
