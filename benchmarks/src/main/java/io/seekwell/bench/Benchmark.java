package io.seekwell.bench;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Runs every workload on every read path, cold (fresh factory and client each iteration), counting
 * requests and bytes with an SDK interceptor on each path's client, and writes the report.
 *
 * <p>Arguments: {@code --endpoint URI} (the store), {@code --toxiproxy-server PATH} (Toxiproxy's
 * binary: reads then go through the {@code s3} latency profile of a proxy started afresh before
 * every iteration), {@code --access-key}, {@code --secret-key}, {@code --scale full|quick}, {@code
 * --iterations N}, {@code --paths seekwell,aal,iceberg-default,s3a-classic}, {@code --workloads
 * W1,W5,...}, {@code --warmup N} (unmeasured iterations per path and workload first; default 1, and
 * 3 for the loopback profile, which measures CPU per byte: a JVM still compiling the SDK's and the
 * streams' code would measure its compiler), {@code --profile NAME}, {@code --report FILE}, {@code
 * --data DIR}. Behind the proxy, W9 is also measured on each Seekwell path through the same proxy
 * without its latency and bandwidth limit ({@code PATH@no-latency}), for its target, and against
 * the store directly ({@code PATH@direct}). A Seekwell path named with {@code @disk} ({@code
 * --paths seekwell-iceberg,seekwell-iceberg@disk}) is measured with its disk tier on and cold.
 */
public final class Benchmark {

  /** The suffix of a path measured against the store directly, not through the latency proxy. */
  static final String DIRECT = "@direct";

  /** The suffix of a path measured through the proxy with no latency and no bandwidth limit. */
  static final String NO_LATENCY = "@no-latency";

  /**
   * The suffix of a Seekwell path measured with its disk tier on and cold: a directory of its own,
   * emptied before every iteration, so that every object is fetched and written.
   */
  static final String DISK = "@disk";

  /**
   * S3A's classic stream with ORC's reader merging reads less than 4 MiB apart ({@code
   * orc.min.disk.seek.size}): measured in the ORC workloads only, where it differs from {@code
   * s3a-classic}.
   */
  static final String ORC_TUNED = "s3a-classic-orc-tuned";

  private static final Path DISK_DIRECTORY = Path.of("benchmarks/target/disk-tier-cold");

  private Benchmark() {}

  /**
   * One measured iteration; {@code hedges} is the number of hedged GETs Seekwell counted, or -1 for
   * a path that does not report it.
   */
  record Sample(
      double seconds,
      long gets,
      long heads,
      long bytes,
      long peakHeap,
      long checksum,
      long hedges) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    URI endpoint = URI.create(Options.required(options, "endpoint"));
    Path out = Path.of(options.getOrDefault("report", defaultReport(options)));
    ToxiproxyServer toxiproxy = toxiproxy(options, endpoint);
    try {
      run(options, endpoint, toxiproxy, out);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(
      Map<String, String> options, URI endpoint, ToxiproxyServer toxiproxy, Path out)
      throws IOException, InterruptedException {
    URI readEndpoint = toxiproxy != null ? toxiproxy.endpoint() : endpoint;
    StaticCredentialsProvider credentials = credentials(options);
    Dataset.Scale scale =
        Dataset.Scale.valueOf(options.getOrDefault("scale", "full").toUpperCase(Locale.ROOT));
    int iterations = Integer.parseInt(options.getOrDefault("iterations", "5"));
    int warmups = warmups(options);
    List<String> paths =
        Arrays.asList(
            options
                .getOrDefault("paths", "seekwell,aal,iceberg-default,s3a-classic," + ORC_TUNED)
                .split(","));
    List<Workload> workloads = new ArrayList<>();
    for (String name :
        options
            .getOrDefault("workloads", "W1,W2,W3,W4,W5,W6,W7,W8,W9,W10,W11,W12,W13")
            .split(",")) {
      workloads.add(Workload.valueOf(name.trim()));
    }

    Map<String, String> seekwell = settings(options.getOrDefault("seekwell", ""));
    // Checked before anything is measured: an unknown or malformed setting fails the run here.
    configuration(seekwell);
    Dataset data;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      data =
          Dataset.prepare(admin, Path.of(options.getOrDefault("data", ".tools/bench-data")), scale);
    }

    List<String> skipped =
        new ArrayList<>(
            Arrays.stream(options.getOrDefault("skip", "").split(","))
                .map(String::trim)
                .filter(entry -> !entry.isEmpty())
                // Only what this run would have measured is said to be skipped.
                .filter(
                    entry ->
                        workloads.stream().anyMatch(w -> entry.equals(w + ":" + pathOf(entry)))
                            && paths.stream().anyMatch(path -> path.trim().equals(pathOf(entry))))
                .toList());
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    for (Workload workload : workloads) {
      Map<String, List<Sample>> byPath = new LinkedHashMap<>();
      List<String> runPaths =
          new ArrayList<>(
              paths.stream()
                  .filter(path -> !skipped.contains(workload + ":" + path.trim()))
                  .filter(path -> workload.orc() || !readPathOf(path.trim()).equals(ORC_TUNED))
                  .toList());
      if (toxiproxy != null && workload == Workload.W9) {
        // The task group's target compares each Seekwell path with itself without the latency,
        // in the same run: through the same proxy, and on the store directly.
        List<String> seekwellPaths =
            runPaths.stream()
                .map(String::trim)
                .filter(path -> path.startsWith("seekwell") && path.indexOf('@') < 0)
                .toList();
        seekwellPaths.forEach(path -> runPaths.add(path + NO_LATENCY));
        seekwellPaths.forEach(path -> runPaths.add(path + DIRECT));
      }
      for (int run = 1 - warmups; run <= iterations; run++) {
        // Each iteration starts with another path, so that no path always follows the same one.
        List<String> order = new ArrayList<>(runPaths);
        Collections.rotate(order, -Math.floorMod(run, Math.max(1, order.size())));
        for (String path : order) {
          if (toxiproxy != null) {
            // Streams that abort GETs leave the proxy holding the rest of the object in memory.
            toxiproxy.restart();
          }
          long waited = Quiet.await();
          if (waited > 5_000) {
            System.out.printf(
                Locale.ROOT, "... waited %.1f s for the machine to go quiet%n", waited / 1000.0);
          }
          System.out.printf(
              Locale.ROOT,
              run <= 0 ? "... %s %s, warm-up%n" : "... %s %s, iteration %d of %d%n",
              workload,
              path,
              run,
              iterations);
          try {
            Sample sample =
                measure(
                    workload,
                    path,
                    data,
                    endpointOf(path, endpoint, readEndpoint, toxiproxy),
                    credentials,
                    seekwell);
            if (run > 0) {
              byPath.computeIfAbsent(path, p -> new ArrayList<>()).add(sample);
            }
          } catch (IOException | RuntimeException e) {
            // A path that fails is reported as failed, not measured further; the run goes on.
            System.out.println("... " + workload + " " + path + " failed:");
            e.printStackTrace(System.out);
            skipped.add(workload + ":" + path + " (failed: " + rootMessage(e) + ")");
            runPaths.remove(path);
            byPath.remove(path);
          }
        }
      }
      Map<String, List<Sample>> inPathOrder = new LinkedHashMap<>();
      for (String path : runPaths) {
        if (byPath.containsKey(path)) {
          inPathOrder.put(path, byPath.get(path));
        }
      }
      checkSameValues(workload, inPathOrder);
      results.put(workload, inPathOrder);
      // Written after every workload, so that a run cut short keeps what it measured.
      Files.writeString(
          out,
          FaultBenchmark.keepingFaultSection(
              out, report(results, options, scale, iterations, data, skipped)));
      if (results.values().stream().anyMatch(measured -> measured.containsKey("aal"))) {
        try {
          Chart.write(results, chartPath(out));
        } catch (RuntimeException e) {
          // The report is the result; a chart that cannot be drawn must not end the run.
          System.out.println("... the chart could not be drawn after " + workload + ": " + e);
        }
      }
    }
    String report = report(results, options, scale, iterations, data, skipped);
    Files.writeString(out, FaultBenchmark.keepingFaultSection(out, report));
    System.out.println(report);
    System.out.println("Report written to " + out);
    if (results.values().stream().anyMatch(measured -> measured.containsKey("aal"))) {
      System.out.println("Chart written to " + chartPath(out));
    }
  }

  /** The read path {@code path} measures: its name without a {@code @} suffix. */
  static String readPathOf(String path) {
    String name = path.trim();
    int at = name.indexOf('@');
    return at < 0 ? name : name.substring(0, at);
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
  static int warmups(Map<String, String> options) {
    return Integer.parseInt(options.getOrDefault("warmup", isLoopback(options) ? "3" : "1"));
  }

  /** Whether the run's profile ({@code --profile}, loopback by default) is {@code loopback}. */
  private static boolean isLoopback(Map<String, String> options) {
    return options.getOrDefault("profile", "loopback").equals("loopback");
  }

  /** docs/benchmarks-loopback.md for the loopback profile, docs/benchmarks.md otherwise. */
  private static String defaultReport(Map<String, String> options) {
    return isLoopback(options) ? "docs/benchmarks-loopback.md" : "docs/benchmarks.md";
  }

  /** The Toxiproxy server {@code --toxiproxy-server} names, started in front of the store. */
  static ToxiproxyServer toxiproxy(Map<String, String> options, URI endpoint)
      throws IOException, InterruptedException {
    return options.containsKey("toxiproxy-server")
        ? ToxiproxyServer.start(
            Path.of(options.get("toxiproxy-server")),
            Path.of("benchmarks/target/toxiproxy.log"),
            endpoint)
        : null;
  }

  /** The store's credentials from {@code --access-key} and {@code --secret-key}. */
  static StaticCredentialsProvider credentials(Map<String, String> options) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(
            Options.required(options, "access-key"), Options.required(options, "secret-key")));
  }

  private static Path chartPath(Path report) {
    return report.resolveSibling(
        report.getFileName().toString().replaceFirst("\\.md$", "") + ".png");
  }

  private static String rootMessage(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  private static String report(
      Map<Workload, Map<String, List<Sample>>> results,
      Map<String, String> options,
      Dataset.Scale scale,
      int iterations,
      Dataset data,
      List<String> skipped) {
    String notMeasured =
        skipped.isEmpty()
            ? ""
            : "\nNot measured (skipped with `--skip`, or failed): "
                + String.join(", ", skipped)
                + (options.containsKey("skip-reason") ? ". " + options.get("skip-reason") : "")
                + "\n";
    return Report.markdown(results, options, scale, iterations)
        + notMeasured
        + "\n"
        + Options.targetsOrSmokeNote(
            options,
            () ->
                Targets.markdown(
                    results, data.projectionBytes, data.orcStripes, isLoopback(options)));
  }

  static Sample measure(
      Workload workload,
      String pathName,
      Dataset data,
      URI endpoint,
      StaticCredentialsProvider credentials,
      Map<String, String> seekwell)
      throws IOException {
    RequestCounter counter = new RequestCounter();
    List<MemoryPoolMXBean> heap =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();
    long checksum;
    double seconds;
    long hedges;
    Map<String, String> settings = seekwell;
    if (pathName.endsWith(DISK)) {
      settings = new HashMap<>(seekwell);
      settings.put("physicalio.disk.cache.dir", DISK_DIRECTORY.toString());
    }
    emptyDiskCache(settings);
    // Timed: the workload on a fresh path; not timed: building and closing its clients.
    try (ReadPath path = open(pathName, endpoint, credentials, counter, settings)) {
      System.gc();
      heap.forEach(MemoryPoolMXBean::resetPeakUsage);
      long start = System.nanoTime();
      checksum = workload.run(path, data);
      seconds = (System.nanoTime() - start) / 1e9;
      hedges = path.seekwellMetrics().map(metrics -> metrics.get(Metric.HEDGED_GETS)).orElse(-1L);
      if (pathName.endsWith(DISK)) {
        path.seekwellMetrics().ifPresent(metrics -> requireDiskTier(pathName, metrics));
      }
    }
    long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    return new Sample(
        seconds, counter.gets(), counter.heads(), counter.bytes(), peak, checksum, hedges);
  }

  /**
   * Fails the run if {@code path}'s factory read without its disk tier (its directory could not be
   * used: see the warning in the log), which would measure the store instead.
   */
  static void requireDiskTier(String path, MetricsSnapshot metrics) {
    if (metrics.get(Metric.DISK_UNAVAILABLE) > 0) {
      throw new IllegalStateException(
          path + ": the disk tier's directory could not be used, so the run would not measure it");
    }
  }

  /**
   * Empties the disk tier's directory if the Seekwell settings name one: every iteration is cold,
   * on disk too.
   */
  private static void emptyDiskCache(Map<String, String> seekwell) throws IOException {
    String directory = seekwell.get("physicalio.disk.cache.dir");
    if (directory != null) {
      Directories.delete(Path.of(directory));
    }
  }

  /**
   * A fresh read path whose clients {@code counter} counts; closing it closes them: {@code
   * seekwell}, {@code aal}, {@code iceberg-default}, {@code s3a-classic}, and Seekwell through its
   * connectors, {@code seekwell-iceberg} and {@code seekwell-s3a}. The {@code seekwell} settings
   * (Seekwell's configuration keys) apply to all three Seekwell paths, given as each stack gives
   * them: as they are, as {@code seekwell.*} FileIO properties, as {@code fs.s3a.seekwell.*}.
   */
  static ReadPath open(
      String name,
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      Map<String, String> seekwell)
      throws IOException {
    return switch (readPathOf(name)) {
      case "seekwell" ->
          new SeekwellPath(
              Clients.async(endpoint, credentials, counter),
              Dataset.BUCKET,
              configuration(seekwell));
      case "aal" -> new AalPath(Clients.async(endpoint, credentials, counter), Dataset.BUCKET);
      case "iceberg-default" ->
          new IcebergPath(
              Clients.sync(endpoint, credentials, counter), Dataset.BUCKET, Optional.empty());
      case "seekwell-iceberg" ->
          new IcebergPath(
              Clients.sync(endpoint, credentials, counter), Dataset.BUCKET, Optional.of(seekwell));
      case "s3a-classic" ->
          new S3aPath(endpoint, credentials, counter, Dataset.BUCKET, Optional.empty(), 0);
      case ORC_TUNED ->
          new S3aPath(
              endpoint,
              credentials,
              counter,
              Dataset.BUCKET,
              Optional.empty(),
              OrcTable.TUNED_SEEK_SIZE);
      case "seekwell-s3a" ->
          new S3aPath(endpoint, credentials, counter, Dataset.BUCKET, Optional.of(seekwell), 0);
      default -> throw new IllegalArgumentException("Unknown read path: " + name);
    };
  }

  private static S3SeekableInputStreamConfiguration configuration(Map<String, String> settings) {
    return S3SeekableInputStreamConfiguration.fromConfiguration(
        ConnectorConfiguration.of(settings));
  }

  /** {@code key=value,key=value} as a map. */
  static Map<String, String> settings(String list) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String pair : list.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("Expected key=value in --seekwell, got: " + pair);
      }
      settings.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
    }
    return settings;
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
