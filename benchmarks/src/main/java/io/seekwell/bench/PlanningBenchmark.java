package io.seekwell.bench;

import io.seekwell.iceberg.SeekwellS3FileIO;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.types.Types;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Iceberg scan planning ({@code table.newScan().planFiles()}) of a table of many small appends,
 * each with a manifest of its own, through each FileIO in a fresh state, as a new JVM has it:
 * Iceberg's {@code S3FileIO}, the same with Iceberg's in-memory manifest cache (empty in a new
 * JVM), with AAL, and Seekwell's FileIO with a cold disk tier and with a warm one. Options as for
 * {@link Benchmark}, plus {@code --snapshots N} (default 1000) and {@code --iterations N} (default
 * 3) and {@code --paths} (default all); the report goes to {@code --report} (default {@code
 * docs/benchmarks-planning.md}).
 */
public final class PlanningBenchmark {

  private static final String BUCKET = "seekwell-planning";
  private static final List<String> PATHS =
      List.of(
          "iceberg-s3fileio", "iceberg-manifest-cache", "aal", "seekwell-cold", "seekwell-warm");

  /** Iceberg's switch between planning on its worker pool (the default) and on the caller. */
  private static final String PLAN_IN_WORKER_POOL = "iceberg.scan.plan-in-worker-pool";

  /** The small table that is scanned whole: this many appends of one data file each. */
  private static final int SCAN_FILES = 20;

  /** Rows per scanned data file: about 1 MB of {@link SampleTable}'s 20 columns. */
  private static final int SCAN_ROWS = 6_000;

  private PlanningBenchmark() {}

  /** Whether {@code --planner single} asks for Iceberg's planning on the calling thread. */
  private static boolean singleThreaded(Map<String, String> options) {
    String planner = options.getOrDefault("planner", "pool");
    if (!planner.equals("pool") && !planner.equals("single")) {
      throw new IllegalArgumentException("--planner takes pool or single, was " + planner);
    }
    return planner.equals("single");
  }

  /** One measured planning. */
  record Sample(double seconds, double cpuSeconds, long gets, long bytes, long files) {}

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    if (singleThreaded(options)) {
      // Read when Iceberg's scan classes load, which has not happened yet.
      System.setProperty(PLAN_IN_WORKER_POOL, "false");
    }
    URI endpoint = URI.create(Options.required(options, "endpoint"));
    ToxiproxyServer toxiproxy = Benchmark.toxiproxy(options, endpoint);
    try {
      run(options, endpoint, toxiproxy);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(Map<String, String> options, URI endpoint, ToxiproxyServer toxiproxy)
      throws IOException, InterruptedException {
    URI readEndpoint = toxiproxy != null ? toxiproxy.endpoint() : endpoint;
    StaticCredentialsProvider credentials = Benchmark.credentials(options);
    int snapshots = Integer.parseInt(options.getOrDefault("snapshots", "1000"));
    int iterations = Integer.parseInt(options.getOrDefault("iterations", "3"));
    Path report = Path.of(options.getOrDefault("report", "docs/benchmarks-planning.md"));
    List<String> paths =
        options.containsKey("paths")
            ? Arrays.stream(options.get("paths").split(",")).map(String::trim).toList()
            : PATHS;
    String planned =
        prepare(endpoint, credentials, "t" + snapshots, snapshots, PlanningBenchmark::unwritten);
    Map<String, List<Sample>> results =
        measure(paths, iterations, planned, false, snapshots, readEndpoint, credentials, toxiproxy);
    String markdown = markdown(results, options, snapshots, iterations);
    if (!singleThreaded(options)) {
      String scanned =
          prepare(endpoint, credentials, "s" + SCAN_FILES, SCAN_FILES, PlanningBenchmark::written);
      Map<String, List<Sample>> scans =
          measure(
              paths, iterations, scanned, true, SCAN_FILES, readEndpoint, credentials, toxiproxy);
      markdown += scanMarkdown(scans);
    }
    Files.createDirectories(report.toAbsolutePath().getParent());
    if (Boolean.parseBoolean(options.getOrDefault("append", "false"))) {
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
  private static Map<String, List<Sample>> measure(
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
    Map<String, List<Sample>> results = new LinkedHashMap<>();
    paths.forEach(path -> results.put(path, new ArrayList<>()));
    Directories.delete(disk);
    plan("seekwell-warm", metadata, scan, endpoint, credentials, disk); // fills the disk tier
    for (int run = 1; run <= iterations; run++) {
      for (int i = 0; i < paths.size(); i++) {
        // Each iteration starts with another path, so that no path always follows the same one.
        String path = paths.get((i + run) % paths.size());
        System.out.printf(
            "... %s %s, iteration %d of %d%n", scan ? "scan" : "planning", path, run, iterations);
        if (path.equals("seekwell-cold")) {
          Directories.delete(disk); // and it leaves the tier filled for the next warm run
        }
        if (toxiproxy != null) {
          toxiproxy.restart(); // as the main benchmark does, so that no run inherits its state
        }
        Sample sample = plan(path, metadata, scan, endpoint, credentials, disk);
        if (sample.files() != files) {
          throw new IllegalStateException(
              path + " planned " + sample.files() + " files, not " + files);
        }
        results.get(path).add(sample);
      }
    }
    return results;
  }

  /** Makes the {@code i}th data file appended to the table at {@code location}. */
  @FunctionalInterface
  private interface AppendedFile {
    DataFile make(S3Client admin, String location, int i) throws IOException;
  }

  /** A data file that is listed but never written: planning does not read data files. */
  private static DataFile unwritten(S3Client admin, String location, int i) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location + "/data/f-" + i + ".parquet")
        .withFileSizeInBytes(4096 + i)
        .withRecordCount(100)
        .withFormat(FileFormat.PARQUET)
        .build();
  }

  /** A Parquet file of {@link #SCAN_ROWS} rows of {@link SampleTable}, written to the bucket. */
  private static DataFile written(S3Client admin, String location, int i) throws IOException {
    Path local = Files.createTempFile("seekwell-planning-", ".parquet");
    try {
      Files.delete(local);
      SampleTable.write(local, SCAN_ROWS, 1 << 20, i);
      String path = location + "/data/s-" + i + ".parquet";
      admin.putObject(
          b -> b.bucket(BUCKET).key(path.substring(("s3://" + BUCKET + "/").length())),
          RequestBody.fromFile(local));
      return DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(path)
          .withFileSizeInBytes(Files.size(local))
          .withRecordCount(SCAN_ROWS)
          .withFormat(FileFormat.PARQUET)
          .build();
    } finally {
      Files.deleteIfExists(local);
    }
  }

  /**
   * Creates the table {@code name} once (its metadata location is kept in the bucket): {@code
   * snapshots} fast appends of one file each, so that planning reads as many manifests.
   */
  private static String prepare(
      URI endpoint,
      StaticCredentialsProvider credentials,
      String name,
      int snapshots,
      AppendedFile files)
      throws IOException {
    String marker = "tables/" + name + ".location";
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      if (admin.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(BUCKET))) {
        admin.createBucket(b -> b.bucket(BUCKET));
      }
      try {
        return admin
            .getObjectAsBytes(b -> b.bucket(BUCKET).key(marker))
            .asString(StandardCharsets.UTF_8);
      } catch (NoSuchKeyException e) {
        // Not made yet.
      }
      System.out.printf("... creating a table of %d snapshots (once)%n", snapshots);
      try (S3FileIO io = new S3FileIO(() -> Clients.sync(endpoint, credentials, null))) {
        io.initialize(Map.of());
        String location = "s3://" + BUCKET + "/tables/" + name;
        String metadata = create(io, location, snapshots, admin, files);
        admin.putObject(b -> b.bucket(BUCKET).key(marker), RequestBody.fromString(metadata));
        return metadata;
      }
    }
  }

  /**
   * Creates a table at {@code location} and appends one data file of {@code files} (made with
   * {@code admin}) {@code snapshots} times; returns its metadata file. Only the last metadata is
   * written: planning reads nothing else of it.
   */
  private static String create(
      FileIO io, String location, int snapshots, S3Client admin, AppendedFile files)
      throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));
    UnwrittenMetadata operations = new UnwrittenMetadata(io);
    operations.commit(
        null,
        TableMetadata.newTableMetadata(
            schema,
            PartitionSpec.unpartitioned(),
            location,
            Map.of(TableProperties.MANIFEST_MERGE_ENABLED, "false")));
    Table table = new BaseTable(operations, "planning");
    for (int i = 0; i < snapshots; i++) {
      table.newFastAppend().appendFile(files.make(admin, location, i)).commit();
      if ((i + 1) % 100 == 0) {
        System.out.printf("... %d of %d snapshots%n", i + 1, snapshots);
      }
    }
    String file = location + "/metadata/00001-" + UUID.randomUUID() + ".metadata.json";
    TableMetadataParser.overwrite(operations.current(), io.newOutputFile(file));
    return file;
  }

  /**
   * Table operations that keep the table's metadata in memory: commits write manifests and manifest
   * lists through the FileIO, not metadata files.
   */
  private static final class UnwrittenMetadata implements TableOperations {
    private final FileIO io;
    private TableMetadata current;

    UnwrittenMetadata(FileIO io) {
      this.io = io;
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      if (base != current) {
        throw new CommitFailedException("The table changed since %s", base);
      }
      current = metadata;
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return current.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(current.location(), current.properties());
    }
  }

  /**
   * Plans a scan of the table through a fresh FileIO of {@code path} and, with {@code scan}, reads
   * every column of every data file it plans; timed and counted.
   */
  private static Sample plan(
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
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuStart = os.getProcessCpuTime();
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
      double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
      if (io instanceof SeekwellS3FileIO seekwell) {
        Benchmark.requireDiskTier(path, seekwell.seekwellMetrics());
      }
      return new Sample(seconds, cpu, counter.gets(), counter.bytes(), files);
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

  private static String markdown(
      Map<String, List<Sample>> results,
      Map<String, String> options,
      int snapshots,
      int iterations) {
    StringBuilder out = new StringBuilder();
    boolean single = singleThreaded(options);
    if (single) {
      out.append("\n## Planning on one thread\n\n")
          .append(
              "The same with `-D"
                  + PLAN_IN_WORKER_POOL
                  + "=false`: Iceberg reads the manifests one after another on the calling"
                  + " thread, with no polling.\n\n");
    } else {
      out.append("# Benchmark: Iceberg scan planning\n\n")
          .append(
              String.format(
                  Locale.ROOT,
                  "Generated by `./scripts/bench.sh --profile planning`:"
                      + " `table.newScan().planFiles()` of a table of %d snapshots of one appended"
                      + " file each (%d manifests, manifest merging off), through each FileIO in"
                      + " the state of a new JVM (a new FileIO and S3 client per iteration), %d"
                      + " iterations after one unmeasured planning that fills the disk tier, %s,"
                      + " with Iceberg's worker pool of %d threads (one per core).%n%n",
                  snapshots,
                  snapshots,
                  iterations,
                  options.containsKey("toxiproxy-server")
                      ? "behind the latency proxy (25 ms to first byte, 90 MB/s per connection)"
                      : "on the store directly",
                  Runtime.getRuntime().availableProcessors()))
          .append(
              "- `iceberg-s3fileio`: Iceberg 1.11's `S3FileIO`; `iceberg-manifest-cache`: the"
                  + " same with `io.manifest.cache-enabled=true` (empty in a new JVM); `aal`: the"
                  + " same with `s3.analytics-accelerator.enabled=true` (AAL 1.3.1).\n")
          .append(
              "- `seekwell-cold`: `SeekwellS3FileIO` with an empty disk tier"
                  + " (`seekwell.physicalio.disk.cache.dir`, `seekwell.iceberg.disk.cache.files="
                  + "all`); `seekwell-warm`: the same with the tier filled by an earlier"
                  + " FileIO.\n\n");
    }
    out.append(table(results));
    if (!results.keySet().containsAll(PATHS)) {
      return out.toString();
    }
    double warm = median(results.get("seekwell-warm"));
    double iceberg = median(results.get("iceberg-s3fileio"));
    double cache = median(results.get("iceberg-manifest-cache"));
    long warmGets = results.get("seekwell-warm").stream().mapToLong(Sample::gets).max().orElse(-1);
    if (!single) {
      int slots = 2 * Runtime.getRuntime().availableProcessors();
      out.append(
          String.format(
              Locale.ROOT,
              "%nOn its worker pool, Iceberg 1.11 plans through `ParallelIterable`, which starts"
                  + " new manifest reads only when its consumer finds the queue empty, then"
                  + " sleeps 10 ms: at most %d (twice the pool) per 10 ms. With one entry per"
                  + " manifest, planning these %d manifests takes at least %.1f s whatever the"
                  + " FileIO answers in; a warm disk tier reaches that floor, and the ratio to a"
                  + " cold read of 25 ms per manifest is at most about 2 × 28 ms / 10 ms."
                  + " Planning on one thread (`--planner single`) has no such floor.%n",
              slots,
              snapshots,
              snapshots / (double) slots * 0.010));
    }
    out.append(single ? "\nTargets, planning on one thread:\n\n" : "\n## Targets\n\n")
        .append(
            Options.targetsOrSmokeNote(
                options,
                () ->
                    target(
                            "Warm planning ≥ 10× faster than Iceberg's `S3FileIO` cold",
                            iceberg / warm,
                            10,
                            String.format(Locale.ROOT, "%.1f×", iceberg / warm))
                        + target(
                            "Warm planning ≥ 2× faster than Iceberg's manifest cache in a new JVM",
                            cache / warm,
                            2,
                            String.format(Locale.ROOT, "%.1f×", cache / warm))
                        + target(
                            "Warm planning sends 0 GETs for metadata files on disk",
                            warmGets == 0 ? 1 : 0,
                            1,
                            warmGets + " GETs")));
    return out.toString();
  }

  /** The results as a Markdown table, a row per path. */
  private static String table(Map<String, List<Sample>> results) {
    StringBuilder out = new StringBuilder();
    out.append("| path | time (s), median (min–max) | CPU (s), median | GETs | MB received |\n")
        .append("|---|---|---|---|---|\n");
    for (Map.Entry<String, List<Sample>> entry : results.entrySet()) {
      List<Sample> samples = entry.getValue();
      if (samples.isEmpty()) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f (%.2f–%.2f) | %.2f | %d | %.2f |%n",
              entry.getKey(),
              median(samples),
              samples.stream().mapToDouble(Sample::seconds).min().orElseThrow(),
              samples.stream().mapToDouble(Sample::seconds).max().orElseThrow(),
              median(samples.stream().mapToDouble(Sample::cpuSeconds).toArray()),
              samples.get(samples.size() - 1).gets(),
              samples.get(samples.size() - 1).bytes() / 1e6));
    }
    return out.toString();
  }

  private static String scanMarkdown(Map<String, List<Sample>> results) {
    return String.format(
            Locale.ROOT,
            "%n## Full scan of a small table%n%n"
                + "Planning and reading every column of every data file (parquet-java's reader"
                + " through the FileIO) of a table of %d appends of one Parquet file of %d rows"
                + " (about 1 MB) each, in the same way: a fresh FileIO per iteration; Seekwell's"
                + " tier keeps data files too (`seekwell.iceberg.disk.cache.files=all`).%n%n",
            SCAN_FILES,
            SCAN_ROWS)
        + table(results);
  }

  private static String target(String name, double value, double atLeast, String shown) {
    return "- " + name + ": " + shown + (value >= atLeast ? " — met" : " — **missed**") + "\n";
  }

  private static double median(List<Sample> samples) {
    return median(samples.stream().mapToDouble(Sample::seconds).toArray());
  }

  private static double median(double[] values) {
    double[] seconds = values.clone();
    Arrays.sort(seconds);
    int middle = seconds.length / 2;
    return seconds.length % 2 == 1 ? seconds[middle] : (seconds[middle - 1] + seconds[middle]) / 2;
  }
}
