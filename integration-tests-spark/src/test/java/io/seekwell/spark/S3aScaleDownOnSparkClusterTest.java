package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.apache.spark.ExecutorAllocationClient;
import org.apache.spark.scheduler.ExecutorDecommissionInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An executor removed in the middle of a query that reads through Seekwell's S3A streams, as
 * dynamic allocation scales an application down with decommissioning on: the executor finishes the
 * task it runs, takes no more, and exits (closing its file systems, and with them its Seekwell
 * factory); the other executor reads the rest. No task may fail, and the answer must be the one the
 * rows were written from.
 */
class S3aScaleDownOnSparkClusterTest {

  private static final int EXECUTORS = 2;
  private static final int FILES = 16;
  private static final String BUCKET = "spark-scale-down";
  private static final String TABLE = "s3a://" + BUCKET + "/tables/ids";
  private static final String STARTUP_LINE = "INFO S3SeekableInputStreamFactory: Seekwell ";

  /**
   * Rows that take a while to test (a hash of about 12 KB each), about one in 4,096 of them kept.
   * No ordering: the query is one stage, so no executor holds shuffle output another one needs.
   */
  private static final String RARE =
      "WHERE sha2(repeat(cast(id AS STRING), 2000), 256) LIKE '000%'";

  private static SparkSession spark;

  @BeforeAll
  static void start() {
    TestStore.bucket(BUCKET);
    SparkSession.Builder builder =
        LocalCluster.builder("seekwell-scale-down", EXECUTORS)
            // What dynamic allocation does to an idle executor: decommission it, gracefully.
            .config("spark.decommission.enabled", "true")
            // One file is one task: a file is never packed with another into a split.
            .config("spark.sql.files.openCostInBytes", String.valueOf(1L << 30));
    Map<String, String> s3a = TestStore.s3aSettings();
    s3a.forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    spark = builder.getOrCreate();
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void anExecutorDecommissionedMidQueryFailsNoTaskAndTheAnswerIsWhole() throws Exception {
    String rows = "SELECT id FROM range(0, 240000, 1, " + FILES + ")";
    spark.sql(rows).write().parquet(TABLE);
    List<String> expected = answer(rows + " " + RARE);
    assertTrue(expected.size() > 10, "rows kept: " + expected);
    spark.read().parquet(TABLE).createOrReplaceTempView("ids");

    Tasks tasks = new Tasks();
    spark.sparkContext().addSparkListener(tasks);
    CompletableFuture<List<String>> query =
        CompletableFuture.supplyAsync(() -> answer("SELECT id FROM ids " + RARE));
    // Once both executors are reading, one of them is decommissioned.
    assertTrue(tasks.bothStarted.await(2, TimeUnit.MINUTES), "tasks started: " + tasks.started);
    String leaving = tasks.started.keySet().stream().sorted().findFirst().orElseThrow();
    ExecutorAllocationClient allocation =
        (ExecutorAllocationClient) spark.sparkContext().schedulerBackend();
    assertTrue(
        allocation.decommissionExecutor(
            leaving,
            new ExecutorDecommissionInfo("scaled down", scala.Option.empty()),
            true,
            false),
        "Spark did not decommission executor " + leaving);
    List<String> answer = query.get(5, TimeUnit.MINUTES);
    // Spark's listener bus is asynchronous: a job run after the query ends after its events.
    spark.sparkContext().setJobGroup(Tasks.MARKER, "after the query's events", false);
    spark.range(1).collectAsList();
    spark.sparkContext().clearJobGroup();
    assertTrue(tasks.markerEnded.await(1, TimeUnit.MINUTES), "no end of the marker job");

    assertEquals(expected, answer);
    assertTrue(tasks.removed.await(2, TimeUnit.MINUTES), "executor " + leaving + " did not exit");
    assertEquals(
        Set.of(leaving), tasks.removedExecutors.keySet(), tasks.removedExecutors::toString);
    System.out.println(
        "Tasks started by executor: "
            + tasks.started
            + "; after executor "
            + leaving
            + " left: "
            + tasks.startedAfterRemoval
            + "; rows kept: "
            + answer.size());
    // It left in the middle of the query: the other executor started tasks after it had gone.
    assertTrue(tasks.startedAfterRemoval.get() > 0, "tasks started: " + tasks.started);
    assertEquals(List.of(), tasks.failures, "tasks failed");
    // Both executors read through Seekwell, the one that left among them.
    Map<String, List<String>> logs = LocalCluster.executorLogs(spark);
    long expectedLines = s3aHasCustomStreams() ? 1 : 0;
    for (Map.Entry<String, List<String>> log : logs.entrySet()) {
      List<String> lines = log.getValue();
      assertEquals(
          expectedLines,
          lines.stream().filter(line -> line.startsWith(STARTUP_LINE)).count(),
          "executor " + log.getKey() + ": " + lines);
      // Before Hadoop 3.4.2 the one warning is that S3A reads with its own stream.
      assertEquals(
          List.of(),
          lines.stream()
              .filter(line -> line.startsWith("ERROR") || line.startsWith("WARN"))
              .filter(line -> s3aHasCustomStreams() || !line.contains("S3aStreamSupportCheck"))
              .toList(),
          "executor " + log.getKey());
    }
  }

  /** The tasks of the application as they start and end, and the executors that left it. */
  private static final class Tasks extends SparkListener {
    static final String MARKER = "scale-down-marker";
    final CountDownLatch markerEnded = new CountDownLatch(1);
    private final Set<Integer> markerJobs = ConcurrentHashMap.newKeySet();
    final Map<String, Integer> started = new ConcurrentHashMap<>();
    final Map<String, String> removedExecutors = new ConcurrentHashMap<>();
    final List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    final CountDownLatch bothStarted = new CountDownLatch(1);
    final CountDownLatch removed = new CountDownLatch(1);
    final AtomicInteger startedAfterRemoval = new AtomicInteger();

    @Override
    public void onTaskStart(SparkListenerTaskStart start) {
      started.merge(start.taskInfo().executorId(), 1, Integer::sum);
      if (!removedExecutors.isEmpty()) {
        startedAfterRemoval.incrementAndGet();
      }
      if (started.size() == EXECUTORS) {
        bothStarted.countDown();
      }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      if (!end.taskInfo().successful()) {
        failures.add(end.taskInfo().executorId() + ": " + end.reason());
      }
    }

    @Override
    public void onJobStart(SparkListenerJobStart start) {
      if (start.properties() != null
          && MARKER.equals(start.properties().getProperty("spark.jobGroup.id"))) {
        markerJobs.add(start.jobId());
      }
    }

    @Override
    public void onJobEnd(SparkListenerJobEnd end) {
      if (markerJobs.contains(end.jobId())) {
        markerEnded.countDown();
      }
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved executor) {
      removedExecutors.put(executor.executorId(), executor.reason());
      removed.countDown();
    }
  }

  /** S3A has the custom input stream type from hadoop-aws 3.4.2 on; Spark 4.0 ships 3.4.1. */
  private static boolean s3aHasCustomStreams() {
    return VersionUtil.compareVersions(VersionInfo.getVersion(), "3.4.2") >= 0;
  }

  /** The rows {@code query} answers, as text, sorted. */
  private static List<String> answer(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).sorted().toList();
  }
}
