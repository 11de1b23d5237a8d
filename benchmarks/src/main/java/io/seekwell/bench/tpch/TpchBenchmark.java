package io.seekwell.bench.tpch;

import io.seekwell.bench.Directories;
import io.seekwell.bench.Options;
import io.seekwell.bench.paths.PeerVersions;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.report.RunHeader;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.ProxyCounters;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.testing.FaultProxy;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * TPC-H in Spark on every read path a Spark user has: Iceberg tables through Iceberg's S3FileIO,
 * through S3FileIO with AAL, and through Seekwell's FileIO; Parquet over S3A with its classic
 * stream, its analytics stream (AAL) and Seekwell's. Each path runs the queries in a Spark
 * application of its own (a driver JVM with the class path a user deploys, and two executor JVMs on
 * {@code local-cluster}), first through the emulated S3 network (Toxiproxy: 25 ms to the first
 * byte, 90 MB/s per connection; a counting proxy in front), then with the store on loopback, for
 * each query's floor. Every path must answer every query alike, or the run fails.
 *
 * <p>Options: the store's, {@code --toxiproxy-server}, {@code --scale} (1), {@code --rounds} (3),
 * {@code --queries} (1-22), {@code --paths} (all six), {@code --floors} (true), {@code --seekwell
 * key=value,…} (Seekwell's settings, on its two paths), {@code --executor-memory-mb} (2048: each
 * worker's memory in {@code local-cluster[2,1,N]} and its executor's, {@code
 * spark.executor.memory}; at least {@value #MIN_EXECUTOR_MEMORY_MB}), {@code --deadline-minutes}
 * (60, per Spark application), {@code --data} (.tools/bench-data), {@code --report}
 * (docs/benchmarks-tpch.md), {@code --smoke}.
 */
public final class TpchBenchmark {

  /**
   * The paths as Spark runs them: each name selects the settings of a Spark application in the
   * {@code benchmarks-spark} module ({@code io.seekwell.bench.spark.TpchPath}), which has its own
   * list; they are not the read paths of {@link io.seekwell.bench.paths.Peer} ({@code iceberg-aal},
   * Iceberg's S3FileIO with AAL, is none of them), though some share their names.
   */
  static final List<String> PATHS =
      List.of(
          "iceberg-default",
          "iceberg-aal",
          "seekwell-iceberg",
          "s3a-classic",
          "s3a-analytics",
          "seekwell-s3a");

  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "scale",
          "rounds",
          "queries",
          "paths",
          "floors",
          "seekwell",
          "executor-memory-mb",
          "deadline-minutes",
          "data",
          "report",
          "smoke");

  /**
   * The options {@link #reproduce} repeats: those that change what runs, and where the report goes
   * (a report run to another file must not overwrite the default one when reproduced); not where
   * the store, the data and the deadline are, nor whether it is a smoke run.
   */
  private static final Set<String> REPRODUCED =
      OPTIONS.stream()
          .filter(
              option ->
                  !Set.of("toxiproxy-server", "deadline-minutes", "data", "smoke").contains(option))
          .collect(Collectors.toUnmodifiableSet());

  /** The smallest executor Spark starts: 1.5 × the 300 MB it reserves. */
  static final int MIN_EXECUTOR_MEMORY_MB = 450;

  private static final Path WORK = Path.of("benchmarks/target/tpch");
  private static final Path MODULE = Path.of("benchmarks-spark");

  private TpchBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("TpchBenchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    if (!options.has("toxiproxy-server")) {
      throw new IllegalArgumentException(
          "TpchBenchmark needs --toxiproxy-server: the emulated network");
    }
    double scale = options.decimal("scale", 1);
    int rounds = options.integer("rounds", 3);
    List<String> queries = TpchApplication.queryNames(options.text("queries", "1-22"));
    List<String> paths = paths(options);
    boolean floors = !options.has("floors") || options.flag("floors");
    Map<String, String> seekwell = SeekwellSettings.of(options);
    int executorMemoryMb = executorMemoryMb(options);
    Duration deadline = Duration.ofMinutes(options.integer("deadline-minutes", 60));
    Path report = Path.of(options.text("report", "docs/benchmarks-tpch.md"));

    Directories.delete(WORK);
    SparkDriver spark = new SparkDriver(MODULE, WORK);
    TpchData data =
        TpchData.generate(spark, Path.of(options.text("data", ".tools/bench-data")), scale, WORK);
    try (S3Client admin = Clients.sync(endpoint, Store.credentials(options), null)) {
      data.uploadParquet(admin);
    }
    data.loadIceberg(spark, endpoint, options, WORK);
    TpchApplication application =
        new TpchApplication(
            spark, options, data, rounds, queries, seekwell, executorMemoryMb, deadline, WORK);

    List<TpchPathRuns> results = new ArrayList<>();
    // The floor goes through the same proxies with no latency and no bandwidth limit, so that
    // both runs pay the proxies' own cost.
    try (ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
        FaultProxy emulated = FaultProxy.start(toxiproxy.endpoint());
        FaultProxy plain = FaultProxy.start(toxiproxy.plainEndpoint());
        ProxyCounters emulatedCounters = ProxyCounters.serve(emulated);
        ProxyCounters plainCounters = ProxyCounters.serve(plain)) {
      emulated.stopRecordingRequestHeads();
      plain.stopRecordingRequestHeads();
      for (String path : paths) {
        // A fresh proxy process for each path: none inherits another's buffers.
        toxiproxy.restart();
        List<TpchQueryRun> throughS3 =
            application.run(path, "s3", emulated.uri(), emulatedCounters.uri());
        List<TpchQueryRun> floor =
            floors
                ? application.run(path, "loopback", plain.uri(), plainCounters.uri())
                : List.of();
        results.add(new TpchPathRuns(path, throughS3, floor));
      }
    }
    TpchReport tpch =
        new TpchReport(
            setup(options, args, scale, rounds, queries, floors, seekwell, executorMemoryMb, paths),
            options,
            queries,
            results);
    tpch.write(report);
    System.out.println("... wrote " + report);
    List<String> problems = new TpchAnswers(queries, results).problems();
    if (!problems.isEmpty()) {
      throw new IllegalStateException("The paths' answers differ: " + problems);
    }
  }

  /** The paths of {@code --paths}: known, and each once. */
  private static List<String> paths(Options options) {
    List<String> paths = options.list("paths", String.join(",", PATHS));
    for (String path : paths) {
      if (!PATHS.contains(path)) {
        throw new IllegalArgumentException(
            "Unknown path " + path + " in --paths; the paths: " + PATHS);
      }
    }
    if (new HashSet<>(paths).size() != paths.size()) {
      throw new IllegalArgumentException("--paths names a path twice: " + paths);
    }
    return paths;
  }

  /** The executors' memory of {@code --executor-memory-mb}: Spark's workers' and executors'. */
  static int executorMemoryMb(Options options) {
    int megabytes = options.integer("executor-memory-mb", 2048);
    if (megabytes < MIN_EXECUTOR_MEMORY_MB) {
      throw new IllegalArgumentException(
          "--executor-memory-mb "
              + megabytes
              + " is too small: Spark starts no executor under "
              + MIN_EXECUTOR_MEMORY_MB
              + " MB");
    }
    return megabytes;
  }

  /** What a reader needs to run this again: the options that change what runs. */
  static String reproduce(Options options, String[] args) {
    if (options.flag("smoke")) {
      return "./scripts/bench.sh --profile tpch --quick";
    }
    StringBuilder command = new StringBuilder("./scripts/bench.sh --profile tpch");
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (REPRODUCED.contains(args[i].substring(2))) {
        command.append(' ').append(args[i]).append(' ').append(args[i + 1]);
      }
    }
    return command.toString();
  }

  private static String setup(
      Options options,
      String[] args,
      double scale,
      int rounds,
      List<String> queries,
      boolean floors,
      Map<String, String> seekwell,
      int executorMemoryMb,
      List<String> paths) {
    return String.format(
        Locale.ROOT,
        "%s. Spark 4.1.1 on `local-cluster[2,1,%d]` (its master and"
            + " two workers in the driver's JVM, each launching one executor JVM of one core and"
            + " %d MB, `spark.executor.memory`), Iceberg %s (`iceberg-aws-bundle`), hadoop-aws %s"
            + " (its SDK bundle; its default stream is AAL's analytics stream, `s3a-analytics`),"
            + " AAL 1.3.1 on both. TPC-H at"
            + " scale factor %s (generated by `io.trino.tpch:tpch`, written by Spark as Parquet with"
            + " its defaults, loaded as Iceberg tables with Iceberg's); %d of the 22 queries, with"
            + " the specification's substitution parameters for validation. Each path runs %d"
            + " round(s) of the queries in order in a Spark application of its own, through the"
            + " emulated S3 network (25 ms to the first byte, 90 MB/s per connection)%s; Seekwell's"
            + " and AAL's caches in the executors live as long as the application, so later rounds"
            + " may find there what earlier ones read (the first round's total is in its own"
            + " column). Spark's settings are its defaults but for those the connectors' docs ask"
            + " for. Seekwell's settings: %s. Paths: %s. A Seekwell path's peers are the other"
            + " paths of its table format.%n%nReproduce: `%s`",
        RunHeader.runOn(),
        executorMemoryMb,
        executorMemoryMb,
        PeerVersions.iceberg(),
        PeerVersions.hadoop(),
        TpchData.scaleName(scale),
        queries.size(),
        rounds,
        floors ? ", then through the same proxies with no latency (the floor)" : "",
        seekwell.isEmpty() ? "the defaults" : seekwell.toString(),
        String.join(", ", paths),
        reproduce(options, args));
  }
}
