package io.seekwell.bench.planning;

import io.seekwell.bench.Directories;
import io.seekwell.bench.Options;
import io.seekwell.bench.ProcessCpu;
import io.seekwell.bench.Runner;
import io.seekwell.bench.paths.IcebergPath;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.bench.workloads.ParquetProjection;
import io.seekwell.bench.workloads.Workload;
import io.seekwell.iceberg.SeekwellS3FileIO;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Iceberg scan planning ({@code table.newScan().planFiles()}) of a table of many small appends,
 * each with a manifest of its own, through each FileIO in a fresh state, as a new JVM has it:
 * Iceberg's {@code S3FileIO}, the same with Iceberg's in-memory manifest cache (empty in a new
 * JVM), with AAL, and Seekwell's FileIO with a cold disk tier and with a warm one. Options as for
 * {@link io.seekwell.bench.reads.Benchmark}, plus {@code --snapshots N} (default 1000) and {@code
 * --iterations N} (default 3) and {@code --paths} (default all); the report goes to {@code
 * --report} (default {@code docs/benchmarks-planning.md}).
 */
public final class PlanningBenchmark {

  /**
   * The FileIOs planned through, each in a state of its own: another axis than the read paths of
   * {@link io.seekwell.bench.paths.Peer}, named apart from them ({@code aal} here is Iceberg's
   * S3FileIO with AAL on).
   */
  static final List<String> PATHS =
      List.of(
          "iceberg-s3fileio", "iceberg-manifest-cache", "aal", "seekwell-cold", "seekwell-warm");

  /** Iceberg's switch between planning on its worker pool (the default) and on the caller. */
  static final String PLAN_IN_WORKER_POOL = "iceberg.scan.plan-in-worker-pool";

  /** The small table that is scanned whole: this many appends of one data file each. */
  static final int SCAN_FILES = 20;

  private PlanningBenchmark() {}

  /** Whether {@code --planner single} asks for Iceberg's planning on the calling thread. */
  static boolean singleThreaded(Options options) {
    return options.value(
        "planner",
        "pool",
        "pool or single",
        planner -> {
          if (!planner.equals("pool") && !planner.equals("single")) {
            throw new IllegalArgumentException(planner);
          }
          return planner.equals("single");
        });
  }

  /** One measured planning. */
  record Planned(
      double seconds,
      double cpuSeconds,
      double compilerCpuSeconds,
      long gets,
      long bytes,
      long files) {}

  /** The options this benchmark takes besides the store's. */
  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "snapshots",
          "iterations",
          "paths",
          "report",
          "append",
          "planner",
          "smoke");

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    Options options = Options.parse("PlanningBenchmark", OPTIONS, args);
    if (singleThreaded(options)) {
      // Read when Iceberg's scan classes load, which has not happened yet.
      System.setProperty(PLAN_IN_WORKER_POOL, "false");
    }
    URI endpoint = Store.endpoint(options);
    ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
    try {
      run(options, endpoint, toxiproxy);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(Options options, URI endpoint, ToxiproxyServer toxiproxy)
      throws IOException, InterruptedException {
    URI readEndpoint = toxiproxy != null ? toxiproxy.endpoint() : endpoint;
    StaticCredentialsProvider credentials = Store.credentials(options);
    int snapshots = options.integer("snapshots", 1000);
    int iterations = options.integer("iterations", 3);
    Path report = Path.of(options.text("report", "docs/benchmarks-planning.md"));
    List<String> paths = options.list("paths", String.join(",", PATHS));
    String planned =
        PlanningTables.prepare(
            endpoint, credentials, "t" + snapshots, snapshots, PlanningTables::unwritten);
    Map<String, List<Planned>> results =
        measure(paths, iterations, planned, false, snapshots, readEndpoint, credentials, toxiproxy);
    String markdown = PlanningReport.markdown(results, options, snapshots, iterations);
    if (!singleThreaded(options)) {
      String scanned =
          PlanningTables.prepare(
              endpoint, credentials, "s" + SCAN_FILES, SCAN_FILES, PlanningTables::written);
      Map<String, List<Planned>> scans =
          measure(
              paths, iterations, scanned, true, SCAN_FILES, readEndpoint, credentials, toxiproxy);
      markdown += PlanningReport.scanMarkdown(scans);
    }
    Files.createDirectories(report.toAbsolutePath().getParent());
    if (options.flag("append")) {
      Files.writeString(report, markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } else {
      Files.writeString(report, markdown);
    }
    System.out.println(markdown);
  }

  /**
   * Plans (and with {@code scan}, reads every data file of) the table of {@code metadata} through
   * each path, {@code iterations} times, after one unmeasured run that fills the disk tier.
   */
  private static Map<String, List<Planned>> measure(
      List<String> paths,
      int iterations,
      String metadata,
      boolean scan,
      int files,
      URI endpoint,
      StaticCredentialsProvider credentials,
      ToxiproxyServer toxiproxy)
      throws IOException, InterruptedException {
    Path disk = Path.of("benchmarks/target/planning-disk-cache");
    Directories.delete(disk);
    plan("seekwell-warm", metadata, scan, endpoint, credentials, disk); // fills the disk tier
    return new Runner(paths, 0, iterations, Runner.Order.ROTATED)
        .run(
            (path, round) -> {
              System.out.printf(
                  "... %s %s, iteration %d of %d%n",
                  scan ? "scan" : "planning", path, round, iterations);
              // The cold run starts with no tier (the last one deleted after the run) and leaves
              // it filled for the next warm run.
              boolean cold = path.equals("seekwell-cold");
              Path previousTier = cold ? Directories.moveAside(disk) : null;
              if (toxiproxy != null) {
                toxiproxy
                    .restart(); // as the main benchmark does, so that no run inherits its state
              }
              Planned sample = plan(path, metadata, scan, endpoint, credentials, disk);
              if (cold) {
                Directories.delete(previousTier);
              }
              if (sample.files() != files) {
                throw new IllegalStateException(
                    path + " planned " + sample.files() + " files, not " + files);
              }
              return sample;
            });
  }

  /**
   * Plans a scan of the table through a fresh FileIO of {@code path} and, with {@code scan}, reads
   * every column of every data file it plans; timed and counted.
   */
  private static Planned plan(
      String path,
      String metadata,
      boolean scan,
      URI endpoint,
      StaticCredentialsProvider credentials,
      Path disk)
      throws IOException {
    RequestCounter counter = new RequestCounter();
    try (S3Client s3 = Clients.sync(endpoint, credentials, counter);
        S3AsyncClient s3Async = Clients.async(endpoint, credentials, counter);
        FileIO io = fileIO(path, s3, s3Async, disk)) {
      long cpuStart = ProcessCpu.nanos();
      long compilerStart = ProcessCpu.compilerNanos();
      long start = System.nanoTime();
      Table table = new BaseTable(new StaticTableOperations(metadata, io), "planning");
      long files = 0;
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        for (FileScanTask task : tasks) {
          if (scan) {
            long length = task.file().fileSizeInBytes();
            ParquetProjection.scan(
                IcebergPath.parquet(io.newInputFile(task.file().location(), length), length),
                Workload.ALL);
          }
          files++;
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long compilerEnd = ProcessCpu.compilerNanos();
      double cpu = (ProcessCpu.nanos() - cpuStart) / 1e9;
      double compilers =
          compilerStart < 0 || compilerEnd < 0 ? Double.NaN : (compilerEnd - compilerStart) / 1e9;
      if (io instanceof SeekwellS3FileIO seekwell) {
        SeekwellSettings.requireDiskTier(path, seekwell.seekwellMetrics());
      }
      return new Planned(seconds, cpu, compilers, counter.gets(), counter.bytes(), files);
    }
  }

  private static FileIO fileIO(String path, S3Client s3, S3AsyncClient s3Async, Path disk) {
    Map<String, String> properties = new HashMap<>();
    S3FileIO io;
    switch (path) {
      case "iceberg-s3fileio" -> io = new S3FileIO(() -> s3);
      case "iceberg-manifest-cache" -> {
        io = new S3FileIO(() -> s3);
        properties.put("io.manifest.cache-enabled", "true");
      }
      case "aal" -> {
        io = new S3FileIO(() -> s3, () -> s3Async);
        properties.put(S3FileIOProperties.S3_ANALYTICS_ACCELERATOR_ENABLED, "true");
      }
      case "seekwell-cold", "seekwell-warm" -> {
        io = new SeekwellS3FileIO(() -> s3, () -> s3Async);
        properties.put("seekwell.physicalio.disk.cache.dir", disk.toString());
        properties.put("seekwell.iceberg.disk.cache.files", "all");
      }
      default -> throw new IllegalArgumentException("Unknown path " + path);
    }
    io.initialize(properties);
    return io;
  }
}
