package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Delta Lake table (delta-spark for the run's Spark) written and read through S3A by Spark with
 * two executor JVMs ({@link LocalCluster}), with Seekwell's stream factory ({@code
 * fs.s3a.input.stream.type=custom}) as the docs say to deploy it. The table is changed by updates
 * and deletes, with a checkpoint every two commits, so that Delta reads its log's JSON and Parquet
 * checkpoints as well as the data files. A copy of the table in a second bucket is read through
 * S3A's classic stream: every query must answer the same, and Spark must count the same records per
 * stage. On a Hadoop before 3.4.2 (Spark 4.0), S3A has no custom stream type and both read through
 * the classic stream.
 */
class S3aDeltaOnSparkClusterTest {

  private static final int EXECUTORS = 2;
  private static final String BUCKET = "spark-delta";
  private static final String CLASSIC_BUCKET = "spark-delta-classic";
  private static final String ANALYTICS_BUCKET = "spark-delta-analytics";
  private static final String TABLE = "s3a://" + BUCKET + "/delta/events";
  private static final String STARTUP_LINE = "INFO S3SeekableInputStreamFactory: Seekwell ";

  private static SparkSession spark;
  private static StageInputs inputs;

  @BeforeAll
  static void start() {
    TestStore.bucket(BUCKET);
    TestStore.bucket(CLASSIC_BUCKET);
    TestStore.bucket(ANALYTICS_BUCKET);
    SparkSession.Builder builder =
        LocalCluster.builder("seekwell-delta-cluster", EXECUTORS)
            .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    Map<String, String> s3a = TestStore.s3aSettings();
    s3a.put("fs.s3a.bucket." + CLASSIC_BUCKET + ".input.stream.type", "classic");
    s3a.put("fs.s3a.bucket." + ANALYTICS_BUCKET + ".input.stream.type", "analytics");
    s3a.forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    spark = builder.getOrCreate();
    inputs = StageInputs.of(spark.sparkContext());
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void aDeltaTableReadThroughSeekwellOnTwoExecutorsAnswersAsTheClassicStream() throws Exception {
    Set<Long> executors = new TreeSet<>(LocalCluster.taskProcesses(spark, EXECUTORS));
    assertEquals(EXECUTORS, executors.size(), "the processes that ran the tasks: " + executors);

    spark
        .sql(rows(0, 400_000, 4))
        .write()
        .format("delta")
        .option("delta.checkpointInterval", "2")
        .save(TABLE);
    spark.sql("UPDATE delta.`" + TABLE + "` SET amount = amount + 1 WHERE category = 'c2'");
    spark.sql("DELETE FROM delta.`" + TABLE + "` WHERE id % 10 = 3");
    spark.sql("INSERT INTO delta.`" + TABLE + "` " + rows(400_000, 450_000, 2));
    assertTrue(
        TestStore.keys(BUCKET, "delta/events/_delta_log/").stream()
            .anyMatch(key -> key.endsWith(".checkpoint.parquet")),
        "Delta wrote a checkpoint: " + TestStore.keys(BUCKET, "delta/events/_delta_log/"));
    TestStore.copy(BUCKET, "delta/", CLASSIC_BUCKET);
    TestStore.copy(BUCKET, "delta/", ANALYTICS_BUCKET);

    String classic = TABLE.replace(BUCKET, CLASSIC_BUCKET);
    String analytics = TABLE.replace(BUCKET, ANALYTICS_BUCKET);
    for (String query :
        List.of(
            "SELECT count(*), round(sum(amount), 2), min(id), max(id) FROM delta.`%s`",
            "SELECT count(*) FROM delta.`%s` WHERE amount > 50 AND category = 'c3'",
            "SELECT category, count(*), round(sum(amount), 2) FROM delta.`%s` GROUP BY category"
                + " ORDER BY category",
            "SELECT bit_xor(xxhash64(id, category, amount)) FROM delta.`%s`",
            "SELECT count(*), round(sum(amount), 2) FROM delta.`%s` VERSION AS OF 1")) {
      String theirs = query.formatted(classic);
      String ours = query.formatted(TABLE);
      assertEquals(answer(theirs), answer(ours), ours);
      List<StageInputs.Input> classicInputs = inputs.of(spark, theirs);
      List<StageInputs.Input> seekwellInputs = inputs.of(spark, ours);
      assertEquals(
          classicInputs.stream().map(StageInputs.Input::records).toList(),
          seekwellInputs.stream().map(StageInputs.Input::records).toList(),
          ours + ": classic " + classicInputs + ", Seekwell " + seekwellInputs);
      if (s3aHasCustomStreams()) {
        assertEquals(answer(ours), answer(query.formatted(analytics)), "AAL: " + ours);
      }
    }
    assertEquals("[[410000]]", answer("SELECT count(*) FROM delta.`" + TABLE + "`").toString());

    // Each executor read through Seekwell: it logged Seekwell's startup line once.
    Map<String, List<String>> logs = LocalCluster.executorLogs(spark);
    assertEquals(EXECUTORS, logs.size(), "the executors' logs: " + logs.keySet());
    long expected = s3aHasCustomStreams() ? 1 : 0;
    logs.forEach(
        (executor, lines) ->
            assertEquals(
                expected,
                lines.stream().filter(line -> line.startsWith(STARTUP_LINE)).count(),
                "executor " + executor + " on Hadoop " + VersionInfo.getVersion() + ": " + lines));
  }

  /** The rows with ids {@code [from, to)}, made by {@code partitions} tasks (a file each). */
  private static String rows(long from, long to, int partitions) {
    return "SELECT id, concat('c', id % 7) AS category, (id * 37 % 1000) / 10.0 AS amount"
        + " FROM range(%d, %d, 1, %d)".formatted(from, to, partitions);
  }

  /** S3A has the custom input stream type from hadoop-aws 3.4.2 on; Spark 4.0 ships 3.4.1. */
  private static boolean s3aHasCustomStreams() {
    return VersionUtil.compareVersions(VersionInfo.getVersion(), "3.4.2") >= 0;
  }

  private static List<String> answer(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).toList();
  }
}
