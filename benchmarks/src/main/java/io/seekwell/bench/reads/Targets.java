package io.seekwell.bench.reads;

import static io.seekwell.bench.paths.Peer.AAL;
import static io.seekwell.bench.paths.Peer.ICEBERG_DEFAULT;
import static io.seekwell.bench.paths.Peer.S3A_CLASSIC;
import static io.seekwell.bench.paths.Peer.S3A_CLASSIC_ORC_TUNED;
import static io.seekwell.bench.paths.Peer.SEEKWELL;

import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.report.Spread;
import io.seekwell.bench.store.Toxiproxy;
import io.seekwell.bench.workloads.ColdRead;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The project's targets, checked against one run's medians and written as a Markdown list: each
 * says the measured value and whether it was met. Targets that need a path or workload the run left
 * out are said to be not measured.
 */
final class Targets {

  private final Map<Workload, Map<String, List<Sample>>> results;
  private final int taskFiles;
  private final List<String> lines = new ArrayList<>();

  private Targets(Map<Workload, Map<String, List<Sample>>> results, int taskFiles) {
    this.results = results;
    this.taskFiles = taskFiles;
  }

  /**
   * The targets of one run. The connector paths' target against their stacks' default streams is a
   * loopback target, checked only in a {@code loopback} run; the task group's targets (its {@code
   * taskFiles} files) are latency targets, checked only behind the proxy.
   */
  static String markdown(
      Map<Workload, Map<String, List<Sample>>> results,
      long projectionBytes,
      int orcStripes,
      int taskFiles,
      boolean loopback) {
    Targets targets = new Targets(results, taskFiles);
    targets.w1Time();
    targets.w1Bytes(projectionBytes);
    targets.w5Throughput();
    targets.everyWorkload();
    targets.clientCpu();
    targets.diskTierCold();
    targets.orc(orcStripes);
    if (loopback) {
      targets.connectorsAgainstTheirStacks();
    } else {
      targets.taskGroup();
    }
    return "## Targets\n\n" + String.join("\n", targets.lines) + "\n";
  }

  private void w1Time() {
    Double aal = ratio(Workload.W1, SEEKWELL, AAL, Sample::seconds);
    Double iceberg = ratio(Workload.W1, SEEKWELL, ICEBERG_DEFAULT, Sample::seconds);
    line("W1 time ≤ 0.7 × AAL's", aal, aal != null && aal <= 0.7, "× AAL's");
    line(
        "W1 time ≤ 0.3 × Iceberg default's",
        iceberg,
        iceberg != null && iceberg <= 0.3,
        "× Iceberg's");
  }

  private void w1Bytes(long projectionBytes) {
    List<Sample> seekwell = samples(Workload.W1, SEEKWELL.pathName());
    Double ratio =
        seekwell == null ? null : Spread.median(seekwell, Sample::bytes) / projectionBytes;
    line(
        String.format(
            Locale.ROOT,
            "W1 bytes fetched ≤ 1.25 × bytes needed (%.1f MB: the 3 columns' chunks and the footer)",
            projectionBytes / 1e6),
        ratio,
        ratio != null && ratio <= 1.25,
        "× needed");
  }

  private void w5Throughput() {
    Double time = ratio(Workload.W5, SEEKWELL, AAL, Sample::seconds);
    Double speedup = time == null ? null : 1 / time;
    line(
        "W5 sequential throughput ≥ 1.8 × AAL's",
        speedup,
        speedup != null && speedup >= 1.8,
        "× AAL's");
  }

  private void everyWorkload() {
    List<String> moreGets = new ArrayList<>();
    List<String> slower = new ArrayList<>();
    int compared = 0;
    for (Workload workload : results.keySet()) {
      Double gets = ratio(workload, SEEKWELL, AAL, Sample::gets);
      Double time = ratio(workload, SEEKWELL, AAL, Sample::seconds);
      if (gets == null || time == null) {
        continue;
      }
      compared++;
      if (gets > 1) {
        moreGets.add(String.format(Locale.ROOT, "%s (%.2f×)", workload, gets));
      }
      if (time > 1) {
        slower.add(String.format(Locale.ROOT, "%s (%.2f×)", workload, time));
      }
    }
    if (compared == 0) {
      lines.add(
          "- Every workload: not measured (needs the " + SEEKWELL + " and " + AAL + " paths)");
      return;
    }
    lines.add(
        "- Every workload, GETs ≤ AAL's: "
            + (moreGets.isEmpty() ? "**met**" : "**missed** in " + String.join(", ", moreGets)));
    lines.add(
        "- Every workload, time ≤ AAL's: "
            + (slower.isEmpty() ? "**met**" : "**missed** in " + String.join(", ", slower)));
  }

  /** Every Seekwell path's client CPU against its stack's most frugal peer's, every workload. */
  private void clientCpu() {
    List<String> more = new ArrayList<>();
    int compared = 0;
    for (Map.Entry<Workload, Map<String, List<Sample>>> workload : results.entrySet()) {
      for (Map.Entry<String, List<Sample>> path : workload.getValue().entrySet()) {
        Double peer = Report.frugalPeerCpu(workload.getValue(), path.getKey());
        if (peer == null || peer == 0 || !Report.comparedWithPeers(path.getKey())) {
          continue;
        }
        compared++;
        double ratio = Spread.median(path.getValue(), Sample::cpuSeconds) / peer;
        if (ratio > 1) {
          more.add(
              String.format(Locale.ROOT, "%s %s (%.2f×)", workload.getKey(), path.getKey(), ratio));
        }
      }
    }
    String target =
        "- Every workload, each Seekwell path's client CPU ≤ the most frugal peer's of its stack";
    if (compared == 0) {
      lines.add(target + ": not measured (needs a Seekwell path and a peer)");
      return;
    }
    lines.add(
        target + ": " + (more.isEmpty() ? "**met**" : "**missed** in " + String.join(", ", more)));
  }

  /**
   * The ORC workloads: alternate columns against the best peer (AAL, S3A's classic stream, and that
   * stream with ORC's own merge of nearby reads) and against Seekwell's own read of all columns, in
   * GETs against the stripes; three columns against S3A's classic stream.
   */
  private void orc(int stripes) {
    Double bestPeer =
        Stream.of(AAL, S3A_CLASSIC, S3A_CLASSIC_ORC_TUNED)
            .map(peer -> ratio(Workload.W11, SEEKWELL, peer, Sample::seconds))
            .filter(Objects::nonNull)
            .max(Double::compare)
            .orElse(null);
    line(
        "W11 ORC alternate columns ≤ 0.8 × the best peer's time (AAL, S3A classic, S3A classic"
            + " with orc.min.disk.seek.size=4194304)",
        bestPeer,
        bestPeer != null && bestPeer <= 0.8,
        "× the best peer's");
    List<Sample> alternate = samples(Workload.W11, SEEKWELL.pathName());
    Double gets = alternate == null ? null : Spread.median(alternate, Sample::gets);
    line(
        "W11 ORC alternate columns in ≤ stripes + 1 GETs (" + stripes + " stripes)",
        gets,
        gets != null && gets <= stripes + 1,
        "GETs");
    Double againstAll = ratio(Workload.W11, SEEKWELL.pathName(), Workload.W10, Sample::seconds);
    line(
        "W11 ORC alternate columns no slower than W10 (all columns) with Seekwell",
        againstAll,
        againstAll != null && againstAll <= 1,
        "× W10's");
    Double three = ratio(Workload.W12, SEEKWELL, S3A_CLASSIC, Sample::seconds);
    line("W12 ORC 3 columns ≤ 0.6 × S3A classic's time", three, three != null && three <= 0.6, "×");
  }

  /** Each {@code PATH@disk} (its disk tier on and cold) against {@code PATH}, every workload. */
  private void diskTierCold() {
    List<String> slower = new ArrayList<>();
    List<String> compared = new ArrayList<>();
    for (Workload workload : results.keySet()) {
      for (String path : results.get(workload).keySet()) {
        if (!path.endsWith(ColdRead.DISK)) {
          continue;
        }
        Double time = ratio(workload, path, Peer.nameOf(path), Sample::seconds);
        if (time == null) {
          continue;
        }
        String entry = String.format(Locale.ROOT, "%s %s (%.2f×)", workload, path, time);
        compared.add(entry);
        if (time > 1.03) {
          slower.add(entry);
        }
      }
    }
    String target = "- Disk tier on and cold, every workload ≤ 1.03 × the same path without it";
    if (compared.isEmpty()) {
      lines.add(target + ": not measured (needs a PATH" + ColdRead.DISK + " path)");
      return;
    }
    lines.add(
        target
            + ": "
            + (slower.isEmpty() ? "**met**" : "**missed** in " + String.join(", ", slower))
            + "; measured: "
            + String.join(", ", compared));
  }

  /**
   * W9: the fastest Seekwell path against the fastest peer, and each Seekwell path that can be told
   * a task's files measured through the latency proxy against itself without the latency, in the
   * same run: through the same proxy (the target: what the latency costs) and, for information, on
   * the store directly (what the proxy's own work on the machine's cores costs as well). The S3A
   * path, which cannot be told them, against reading its files one at a time.
   */
  private void taskGroup() {
    Map<String, List<Sample>> byPath = results.get(Workload.W9);
    if (byPath == null) {
      return;
    }
    Double seekwell = fastest(byPath, true);
    Double peer = fastest(byPath, false);
    Double ratio = seekwell == null || peer == null ? null : seekwell / peer;
    line("W9 task group ≤ 0.4 × the best peer's time", ratio, ratio != null && ratio <= 0.4, "×");
    for (String path : byPath.keySet()) {
      String proxied = Peer.nameOf(path);
      boolean oneFileAtATime =
          Peer.namesSeekwell(proxied) && Peer.named(proxied).stack() == Peer.Stack.S3A;
      if (oneFileAtATime && path.equals(proxied)) {
        oneFileAtATime(proxied);
      } else if (oneFileAtATime && path.endsWith(Benchmark.NO_LATENCY)) {
        information(
            "W9 " + proxied + " against its own time without the latency",
            ratio(Workload.W9, proxied, path, Sample::seconds),
            "the latency of every file's first byte, which nothing ahead of the open can hide");
      } else if (path.endsWith(Benchmark.NO_LATENCY)) {
        Double own = ratio(Workload.W9, proxied, path, Sample::seconds);
        line(
            "W9 "
                + proxied
                + " ≤ 1.3 × its own time without the latency (through the same proxy, with no"
                + " latency or bandwidth limit)",
            own,
            own != null && own <= 1.3,
            "×");
      }
      if (path.endsWith(Benchmark.DIRECT)) {
        information(
            "W9 " + proxied + " against its own time on the store directly, with no proxy",
            ratio(Workload.W9, proxied, path, Sample::seconds),
            "this includes the proxy's own work on the machine's cores");
      }
    }
  }

  /**
   * W9 through S3A, whose file system opens a task's files one by one and has no way to be told
   * them first: its floor is each file's first byte in turn and the bytes at the emulated
   * bandwidth, and the target is 1.3 × that floor.
   */
  private void oneFileAtATime(String path) {
    List<Sample> samples = samples(Workload.W9, path);
    double floor =
        taskFiles * Toxiproxy.LATENCY_MILLIS / 1e3
            + Spread.median(samples, Sample::bytes) / (Toxiproxy.KILOBYTES_PER_SECOND * 1e3);
    Double ratio = floor == 0 ? null : Spread.median(samples, Sample::seconds) / floor;
    line(
        String.format(
            Locale.ROOT,
            "W9 %s ≤ 1.3 × reading its files one at a time (S3A opens a task's files in turn and"
                + " cannot be told them first; the floor is its %d files' %d ms first bytes in turn"
                + " plus its bytes at %d MB/s: %.2f s)",
            path,
            taskFiles,
            Toxiproxy.LATENCY_MILLIS,
            Toxiproxy.KILOBYTES_PER_SECOND / 1000,
            floor),
        ratio,
        ratio != null && ratio <= 1.3,
        "×");
  }

  /**
   * The lowest median time of the Seekwell paths, or of the others; runs without the latency left
   * out.
   */
  private static Double fastest(Map<String, List<Sample>> byPath, boolean seekwell) {
    return byPath.entrySet().stream()
        .filter(entry -> entry.getKey().indexOf('@') < 0)
        .filter(entry -> Peer.namesSeekwell(entry.getKey()) == seekwell)
        .map(entry -> Spread.median(entry.getValue(), Sample::seconds))
        .min(Double::compare)
        .orElse(null);
  }

  private void connectorsAgainstTheirStacks() {
    List<String> slower = new ArrayList<>();
    int compared = 0;
    for (Workload workload : results.keySet()) {
      for (Peer connector : Peer.connectors()) {
        Double time =
            ratio(workload, connector, connector.stackDefault().orElseThrow(), Sample::seconds);
        if (time == null) {
          continue;
        }
        compared++;
        if (time > 1.05) {
          slower.add(String.format(Locale.ROOT, "%s %s (%.2f×)", workload, connector, time));
        }
      }
    }
    String target = "- Each connector path ≤ 1.05 × its stack's default stream (a loopback target)";
    if (compared == 0) {
      lines.add(target + ": not measured");
      return;
    }
    lines.add(
        target
            + ": "
            + (slower.isEmpty() ? "**met**" : "**missed** in " + String.join(", ", slower)));
  }

  private void line(String target, Double value, boolean met, String unit) {
    if (value == null) {
      lines.add("- " + target + ": not measured");
      return;
    }
    lines.add(
        String.format(
            Locale.ROOT, "- %s: %.2f %s — **%s**", target, value, unit, met ? "met" : "missed"));
  }

  /** A ratio given for information, not judged: {@code why} says what it shows; none if absent. */
  private void information(String what, Double ratio, String why) {
    if (ratio != null) {
      lines.add(String.format(Locale.ROOT, "- %s: %.2f × (for information: %s)", what, ratio, why));
    }
  }

  /** Median of {@code path} in {@code workload} over its median in {@code reference}. */
  private Double ratio(
      Workload workload, String path, Workload reference, ToDoubleFunction<Sample> measure) {
    return ratio(samples(workload, path), samples(reference, path), measure);
  }

  /** Median of {@code path} over median of {@code reference}, or null if either was not run. */
  private Double ratio(
      Workload workload, String path, String reference, ToDoubleFunction<Sample> measure) {
    return ratio(samples(workload, path), samples(workload, reference), measure);
  }

  /** As {@link #ratio(Workload, String, String, ToDoubleFunction)}, of two read paths by name. */
  private Double ratio(
      Workload workload, Peer path, Peer reference, ToDoubleFunction<Sample> measure) {
    return ratio(workload, path.pathName(), reference.pathName(), measure);
  }

  /** Median of {@code measured} over median of {@code base}, or null if either was not run. */
  private static Double ratio(
      List<Sample> measured, List<Sample> base, ToDoubleFunction<Sample> measure) {
    if (measured == null || base == null) {
      return null;
    }
    double denominator = Spread.median(base, measure);
    return denominator == 0 ? null : Spread.median(measured, measure) / denominator;
  }

  private List<Sample> samples(Workload workload, String path) {
    Map<String, List<Sample>> byPath = results.get(workload);
    return byPath == null ? null : byPath.get(path);
  }
}
