package io.seekwell.bench.reads;

import io.seekwell.bench.Options;
import io.seekwell.bench.Quiet;
import io.seekwell.bench.Runner;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.report.Chart;
import io.seekwell.bench.report.FaultSection;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.bench.workloads.ColdRead;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Runs every workload on every read path, cold (fresh factory and client each iteration), counting
 * requests and bytes with an SDK interceptor on each path's client, and writes the report.
 *
 * <p>Arguments: {@code --endpoint URI} (the store), {@code --toxiproxy-server PATH} (Toxiproxy's
 * binary: reads then go through the {@code s3} latency profile of a proxy started afresh before
 * every iteration), {@code --access-key}, {@code --secret-key}, {@code --scale full|quick}, {@code
 * --iterations N}, {@code --paths seekwell,aal,...} (the names of {@link Peer}; by default {@code
 * seekwell} and every peer), {@code --workloads W1,W5,...}, {@code --warmup N} (unmeasured
 * iterations per path and workload first; default 1, and 3 for the loopback profile, which measures
 * CPU per byte: a JVM still compiling the SDK's and the streams' code would measure its compiler),
 * {@code --profile NAME}, {@code --report FILE}, {@code --data DIR}, {@code --seekwell
 * key=value,…}, {@code --skip WORKLOAD:PATH,…} and {@code --skip-reason TEXT}, {@code --smoke
 * true}. Behind the proxy, W9 is also measured on each Seekwell path through the same proxy without
 * its latency and bandwidth limit ({@code PATH@no-latency}), for its target, and against the store
 * directly ({@code PATH@direct}). A Seekwell path named with {@code @disk} ({@code --paths
 * seekwell-iceberg,seekwell-iceberg@disk}) is measured with its disk tier on and cold.
 */
public final class Benchmark {

  /** The suffix of a path measured against the store directly, not through the latency proxy. */
  static final String DIRECT = "@direct";

  /** The suffix of a path measured through the proxy with no latency and no bandwidth limit. */
  static final String NO_LATENCY = "@no-latency";

  /** The options this benchmark takes besides the store's. */
  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "scale",
          "iterations",
          "warmup",
          "paths",
          "workloads",
          "report",
          "data",
          "seekwell",
          "skip",
          "skip-reason",
          "smoke");

  private Benchmark() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("Benchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    Path out = Path.of(options.text("report", defaultReport(options)));
    ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
    try {
      run(options, endpoint, toxiproxy, out);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(Options options, URI endpoint, ToxiproxyServer toxiproxy, Path out)
      throws IOException, InterruptedException {
    URI readEndpoint = toxiproxy != null ? toxiproxy.endpoint() : endpoint;
    StaticCredentialsProvider credentials = Store.credentials(options);
    Dataset.Scale scale = Dataset.Scale.of(options);
    int iterations = options.integer("iterations", 5);
    int warmups = warmups(options);
    List<String> paths = options.list("paths", defaultPaths());
    List<Workload> workloads =
        options.list(
            "workloads",
            "W1,W2,W3,W4,W5,W6,W7,W8,W9,W10,W11,W12,W13",
            "a workload",
            Workload::valueOf);
    Map<String, String> seekwell = SeekwellSettings.of(options);
    Dataset data;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      data = Dataset.prepare(admin, Path.of(options.text("data", ".tools/bench-data")), scale);
    }

    List<String> skipped =
        new ArrayList<>(
            options.list("skip", "").stream()
                // Only what this run would have measured is said to be skipped.
                .filter(
                    entry ->
                        workloads.stream().anyMatch(w -> entry.equals(w + ":" + pathOf(entry)))
                            && paths.contains(pathOf(entry)))
                .toList());
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    for (Workload workload : workloads) {
      List<String> runPaths =
          new ArrayList<>(
              paths.stream()
                  .filter(path -> !skipped.contains(workload + ":" + path))
                  .filter(path -> workload.orc() || Peer.find(path).filter(Peer::orcOnly).isEmpty())
                  .toList());
      if (toxiproxy != null && workload == Workload.W9) {
        // The task group's target compares each Seekwell path with itself without the latency,
        // in the same run: through the same proxy, and on the store directly.
        List<String> seekwellPaths =
            runPaths.stream()
                .filter(path -> Peer.namesSeekwell(path) && path.indexOf('@') < 0)
                .toList();
        seekwellPaths.forEach(path -> runPaths.add(path + NO_LATENCY));
        seekwellPaths.forEach(path -> runPaths.add(path + DIRECT));
      }
      Runner runner = new Runner(runPaths, warmups, iterations, Runner.Order.ROTATED);
      Map<String, List<Sample>> byPath =
          runner.run(
              (path, round) -> {
                if (toxiproxy != null) {
                  // Streams that abort GETs leave the proxy holding the rest of the object.
                  toxiproxy.restart();
                }
                long waited = Quiet.await();
                if (waited > 5_000) {
                  System.out.printf(
                      Locale.ROOT,
                      "... waited %.1f s for the machine to go quiet%n",
                      waited / 1000.0);
                }
                System.out.printf(
                    Locale.ROOT,
                    round <= 0 ? "... %s %s, warm-up%n" : "... %s %s, iteration %d of %d%n",
                    workload,
                    path,
                    round,
                    iterations);
                URI from = endpointOf(path, endpoint, readEndpoint, toxiproxy);
                return ColdRead.measure(workload, path, data, from, credentials, seekwell);
              },
              (path, error) -> {
                // A path that fails is reported as failed, not measured further; the run goes on.
                System.out.println("... " + workload + " " + path + " failed:");
                error.printStackTrace(System.out);
                skipped.add(
                    workload
                        + ":"
                        + path
                        + " (failed: "
                        + Store.rootMessage(error, Integer.MAX_VALUE)
                        + ")");
              });
      checkSameValues(workload, byPath);
      results.put(workload, byPath);
      // Written after every workload, so that a run cut short keeps what it measured.
      write(
          out,
          Report.markdown(results, options, scale, iterations, data, skipped),
          results,
          workload);
    }
    String report = Report.markdown(results, options, scale, iterations, data, skipped);
    Files.writeString(out, FaultSection.keeping(out, report));
    System.out.println(report);
    System.out.println("Report written to " + out);
    if (hasAal(results)) {
      System.out.println("Chart written to " + chartPath(out));
    }
  }

  /**
   * Writes {@code report} (keeping the fault section) and, if AAL was measured, its chart, after
   * {@code workload}.
   */
  private static void write(
      Path out, String report, Map<Workload, Map<String, List<Sample>>> results, Workload workload)
      throws IOException {
    Files.writeString(out, FaultSection.keeping(out, report));
    if (hasAal(results)) {
      try {
        Chart.write(results, chartPath(out));
      } catch (RuntimeException e) {
        // The report is the result; a chart that cannot be drawn must not end the run.
        System.out.println("... the chart could not be drawn after " + workload + ": " + e);
      }
    }
  }

  private static boolean hasAal(Map<Workload, Map<String, List<Sample>>> results) {
    return results.values().stream()
        .anyMatch(measured -> measured.containsKey(Peer.AAL.pathName()));
  }

  /** The paths measured unless {@code --paths} names others: Seekwell's own and every peer. */
  private static String defaultPaths() {
    return Stream.concat(
            Stream.of(Peer.SEEKWELL),
            Arrays.stream(Peer.values()).filter(peer -> !peer.isSeekwell()))
        .map(Peer::pathName)
        .collect(Collectors.joining(","));
  }

  /**
   * Where {@code path} reads: the store for {@code PATH@direct}, the proxy without latency for
   * {@code PATH@no-latency}, else {@code readEndpoint}.
   */
  private static URI endpointOf(
      String path, URI store, URI readEndpoint, ToxiproxyServer toxiproxy) {
    if (path.endsWith(DIRECT)) {
      return store;
    }
    return path.endsWith(NO_LATENCY) ? toxiproxy.plainEndpoint() : readEndpoint;
  }

  /** The path of a {@code --skip} entry, {@code WORKLOAD:PATH}. */
  private static String pathOf(String skipEntry) {
    return skipEntry.substring(skipEntry.indexOf(':') + 1);
  }

  /**
   * The unmeasured iterations per path and workload ({@code --warmup}): 1 by default, 3 on the
   * loopback profile.
   */
  static int warmups(Options options) {
    return options.integer("warmup", isLoopback(options) ? 3 : 1);
  }

  /** Whether the run's profile ({@code --profile}, loopback by default) is {@code loopback}. */
  static boolean isLoopback(Options options) {
    return options.text("profile", "loopback").equals("loopback");
  }

  /** docs/benchmarks-loopback.md for the loopback profile, docs/benchmarks.md otherwise. */
  private static String defaultReport(Options options) {
    return isLoopback(options) ? "docs/benchmarks-loopback.md" : "docs/benchmarks.md";
  }

  private static Path chartPath(Path report) {
    return report.resolveSibling(
        report.getFileName().toString().replaceFirst("\\.md$", "") + ".png");
  }

  private static void checkSameValues(Workload workload, Map<String, List<Sample>> byPath) {
    long distinct =
        byPath.values().stream()
            .flatMap(List::stream)
            .mapToLong(Sample::checksum)
            .distinct()
            .count();
    if (distinct > 1) {
      throw new IllegalStateException(workload + ": read paths returned different values");
    }
  }
}
