package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.S3Endpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark with two executor JVMs ({@link LocalCluster}) reading one Iceberg table of a JDBC catalog
 * over MinIO through Iceberg's S3FileIO and through {@code SeekwellS3FileIO} with the disk tier on.
 * As a cluster manager gives every JVM of an application the same settings, the driver and both
 * executors are given the same disk cache directory, and each JVM takes a slot of it. Every query
 * must answer the same through both FileIOs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IcebergOnSparkClusterTest {

  private static final String TABLE = EventsTable.NAME;
  private static final int EXECUTORS = 2;
  private static final String STARTUP_LINE = "INFO S3SeekableInputStreamFactory: Seekwell ";
  private static final String DISK_READ = "DEBUG DiskTier: Disk cache: s3://";
  private static final String OTHER_SLOT = ", which another JVM or scope holds";
  private static final String EXECUTOR_SINK = "spark.metrics.conf.executor.sink.csv.";

  @TempDir static Path diskCache;

  /** Where the executors' metrics systems write Seekwell's counters, one CSV file per gauge. */
  @TempDir static Path executorMetrics;

  private static SparkSession iceberg;
  private static SparkSession seekwell;
  private static SeekwellS3FileIO driverIo;

  @BeforeAll
  static void start() throws IOException {
    String bucket = TestStore.bucket("spark-iceberg-cluster");
    S3Endpoint endpoint = TestStore.endpoint();
    String catalog = "spark.sql.catalog.lake";
    iceberg =
        LocalCluster.builder("seekwell-iceberg-cluster", EXECUTORS)
            // Seekwell's counters in Spark's metrics system, which each executor writes to CSV
            // files every second.
            .config("spark.plugins", "io.seekwell.spark.SeekwellMetricsPlugin")
            .config(EXECUTOR_SINK + "class", "org.apache.spark.metrics.sink.CsvSink")
            .config(EXECUTOR_SINK + "period", "1")
            .config(EXECUTOR_SINK + "unit", "seconds")
            .config(EXECUTOR_SINK + "directory", executorMetrics.toAbsolutePath().toString())
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config(catalog, "org.apache.iceberg.spark.SparkCatalog")
            .config(catalog + ".type", "jdbc")
            .config(catalog + ".io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
            .config(catalog + ".cache-enabled", "false")
            .config(catalog + ".uri", "jdbc:h2:mem:spark-iceberg-cluster;DB_CLOSE_DELAY=-1")
            .config(catalog + ".warehouse", "s3://" + bucket + "/wh")
            .config(catalog + ".s3.endpoint", endpoint.uri().toString())
            .config(catalog + ".s3.path-style-access", "true")
            .config(catalog + ".s3.access-key-id", endpoint.accessKey())
            .config(catalog + ".s3.secret-access-key", endpoint.secretKey())
            .config(catalog + ".client.region", "us-east-1")
            .getOrCreate();
    seekwell = iceberg.newSession();
    seekwell.conf().set(catalog + ".io-impl", SeekwellS3FileIO.class.getName());
    seekwell
        .conf()
        .set(
            catalog + ".seekwell.physicalio.disk.cache.dir", diskCache.toAbsolutePath().toString());
    // One slot for each JVM of the host, as the connectors' docs ask of a Spark deployment.
    seekwell.conf().set(catalog + ".seekwell.physicalio.disk.cache.max.slots", "3");
  }

  @AfterAll
  static void stop() {
    // Closing the driver's FileIO waits for its disk writes and closes the tier, before the
    // directory is deleted.
    if (driverIo != null) {
      driverIo.close();
    }
    if (iceberg != null) {
      iceberg.stop();
    }
  }

  @Test
  @Order(1)
  void executorsAreSeparateJvms() {
    // Both executors have registered before the application starts, so the first offer of this
    // job's tasks gives each of them one.
    List<Long> pids = LocalCluster.taskProcesses(iceberg, EXECUTORS);
    Set<Long> executors = new TreeSet<>(pids);
    assertEquals(EXECUTORS, executors.size(), "the processes that ran the tasks: " + pids);
    assertFalse(executors.contains(ProcessHandle.current().pid()), "a task ran in the driver");
  }

  @Test
  @Order(2)
  void everyQueryThroughSeekwellWithTheDiskTierAnswersAsIcebergsFileIo() {
    iceberg.sql("CREATE NAMESPACE IF NOT EXISTS lake.db");
    // Small splits: each data file is a task of its own, so that both executors read. Planning
    // distributed: the executors read the manifests.
    iceberg.sql(
        "CREATE TABLE "
            + TABLE
            + " (id BIGINT, category STRING, amount DOUBLE) USING iceberg"
            + " TBLPROPERTIES ('read.split.target-size' = '1048576',"
            + " 'read.data-planning-mode' = 'distributed')");
    iceberg.sql("INSERT INTO " + TABLE + " " + EventsTable.rows(0, 300_000, 4));
    iceberg.sql("DELETE FROM " + TABLE + " WHERE id % 10 = 3");
    iceberg.sql("INSERT INTO " + TABLE + " " + EventsTable.rows(300_000, 400_000, 4));

    for (Map.Entry<String, String> query : EventsTable.queries().entrySet()) {
      List<String> expected = EventsTable.answer(iceberg, query.getValue());
      assertEquals(expected, EventsTable.answer(seekwell, query.getValue()), query.getKey());
    }
    assertEquals(
        "[[370000]]", EventsTable.answer(seekwell, "SELECT count(*) FROM " + TABLE).toString());

    // The driver planned through Seekwell, with the disk tier: it opened the directory first.
    driverIo =
        assertInstanceOf(
            SeekwellS3FileIO.class, EventsTable.load(seekwell).io(), "Seekwell is in use");
    MetricsSnapshot metrics = driverIo.seekwellMetrics();
    assertTrue(metrics.get(Metric.GET_REQUESTS) > 0, metrics::toString);
    assertTrue(metrics.get(Metric.DISK_MISSES) > 0, metrics::toString);
    assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE), metrics::toString);

    // The executors read the data files through Seekwell (each said so in its own log), each with
    // the disk tier in a slot of the directory of its own: the driver holds slot-0.
    Map<String, List<String>> logs = LocalCluster.executorLogs(iceberg);
    assertEquals(EXECUTORS, logs.size(), "the executors' logs: " + logs.keySet());
    String unavailable = "WARN DiskTier: Disk cache in " + diskCache.toAbsolutePath() + " ";
    // Each executor's memory budget is half of what Spark leaves outside its memory manager.
    String budget = "within the JVM's " + sparkBudget(executorHeap()) + " bytes for every factory";
    logs.forEach(
        (executor, lines) -> {
          assertEquals(1, count(lines, STARTUP_LINE), "executor " + executor + " logged " + lines);
          assertEquals(0, count(lines, unavailable), "executor " + executor + " logged " + lines);
          assertTrue(
              lines.stream()
                  .filter(line -> line.startsWith(STARTUP_LINE))
                  .allMatch(
                      line ->
                          line.contains(budget)
                              && line.contains(
                                  "(seekwell.memory.limit: half of Spark's user memory")),
              "executor " + executor + " logged " + lines + ", not " + budget);
        });
    assertEquals(List.of("slot-0", "slot-1", "slot-2"), slots());

    // The executors read manifests from disk: each query's FileIO on an executor starts with an
    // empty memory, and finds on disk what its own JVM or another one fetched for an earlier
    // query (logged at debug level by the disk tier, see log4j2.properties).
    Map<String, Long> manifestsFromDisk = new TreeMap<>();
    Map<String, Long> fromOtherSlots = new TreeMap<>();
    logs.forEach(
        (executor, lines) -> {
          List<String> fromDisk =
              lines.stream()
                  .filter(line -> line.startsWith(DISK_READ))
                  .filter(line -> line.contains("/metadata/") && line.contains(".avro "))
                  .toList();
          manifestsFromDisk.put(executor, (long) fromDisk.size());
          fromOtherSlots.put(
              executor, fromDisk.stream().filter(line -> line.endsWith(OTHER_SLOT)).count());
        });
    System.out.println(
        "Manifest blocks the executors read from disk: "
            + manifestsFromDisk
            + ", of them from slots other JVMs hold: "
            + fromOtherSlots);
    assertTrue(
        manifestsFromDisk.values().stream().mapToLong(Long::longValue).sum() > 0,
        "manifest blocks read from disk by executor: " + manifestsFromDisk);
  }

  @Test
  @Order(3)
  void eachExecutorPublishesSeekwellsCountersInSparksMetricsSystem() throws Exception {
    // The queries above have run: every executor read through Seekwell. Each executor's sink
    // writes a line per gauge every second; wait (at most a minute) for a line that counts GETs.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    Map<String, Long> gets = lastValues("get_requests");
    while (!(gets.size() == EXECUTORS && gets.values().stream().allMatch(value -> value > 0))
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
      gets = lastValues("get_requests");
    }
    assertEquals(EXECUTORS, gets.size(), "executors' GET counts: " + gets);
    assertTrue(gets.values().stream().allMatch(value -> value > 0), gets::toString);
    // Every counter is there, the over-read among them.
    Map<String, Long> received = lastValues("bytes_received");
    assertEquals(EXECUTORS, received.size(), "executors' bytes received: " + received);
    assertTrue(received.values().stream().allMatch(value -> value > 0), received::toString);
    assertEquals(EXECUTORS, lastValues("prefetched_bytes_unused").size());
  }

  /**
   * The last value each executor's sink wrote for Seekwell's gauge {@code name}, by file (one file
   * per executor).
   */
  private static Map<String, Long> lastValues(String name) throws IOException {
    String suffix = ".plugin.io.seekwell.spark.SeekwellMetricsPlugin." + name + ".csv";
    Map<String, Long> values = new TreeMap<>();
    try (Stream<Path> files = Files.list(executorMetrics)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String fileName = file.getFileName().toString();
        List<String> lines = Files.readAllLines(file);
        // A header line ("t,value"), then one line per report; the last may be half written.
        if (fileName.endsWith(suffix) && lines.size() > 1) {
          String last = lines.get(lines.size() - 1);
          String[] fields = last.split(",");
          if (fields.length == 2 && !fields[1].isEmpty()) {
            values.put(fileName, Long.parseLong(fields[1].trim()));
          }
        }
      }
    }
    return values;
  }

  /** The maximum heap of the executors, which all have the same. */
  private static long executorHeap() {
    List<Long> heaps =
        LocalCluster.inTasks(
            iceberg, EXECUTORS, ids -> List.of(Runtime.getRuntime().maxMemory()).iterator());
    assertEquals(1, new TreeSet<>(heaps).size(), "the executors' heaps: " + heaps);
    return heaps.get(0);
  }

  /**
   * Half of a heap's user memory in Spark at its default {@code spark.memory.fraction} of 0.6 (the
   * heap less Spark's 300 MiB, times 0.4), at least 16 MiB, at most 1 GiB or a quarter of the heap.
   */
  private static long sparkBudget(long heap) {
    long half = Math.max(16L << 20, (long) ((heap - (300L << 20)) * 0.4 / 2));
    return Math.min(half, Math.min(1L << 30, heap / 4));
  }

  /** The slots of the disk cache directory, by name. */
  private static List<String> slots() {
    try (Stream<Path> entries = Files.list(diskCache)) {
      return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long count(List<String> lines, String start) {
    return lines.stream().filter(line -> line.startsWith(start)).count();
  }
}
