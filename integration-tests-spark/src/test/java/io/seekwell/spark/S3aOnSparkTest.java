package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark reading Parquet and ORC through S3A with {@code fs.s3a.input.stream.type=custom} and
 * Seekwell's Hadoop bundle, as users deploy it: hadoop-aws with the AWS SDK bundle it is built with
 * (3.4.2 on Spark 4.1 in the default run). Seekwell's memory is limited to 8 MB, so its cache
 * evicts during the scans. On a Hadoop before 3.4.2 (Spark 4.0), S3A has no custom stream type: the
 * reads are S3A's own, and Seekwell's bundle must say so in one warning.
 */
class S3aOnSparkTest {

  private static final String ROWS =
      "SELECT id, concat('c', id % 7) AS category, (id * 37 % 1000) / 10.0 AS amount"
          + " FROM range(0, 1500000)";

  private static final String CLASSIC_BUCKET = "spark-s3a-classic";
  private static final String ANALYTICS_BUCKET = "spark-s3a-analytics";
  private static final String FULL_SCAN = "SELECT bit_xor(xxhash64(id, category, amount)) FROM %s";

  private static String bucket;
  private static StageInputs inputs;
  private static String table;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    bucket = TestStore.bucket("spark-s3a");
    table = "s3a://" + bucket + "/tables/events";
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("seekwell-s3a")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4");
    java.util.Map<String, String> s3a = TestStore.s3aSettings();
    s3a.put("fs.s3a.seekwell.physicalio.max.memory.limit", "8MB");
    s3a.forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    // A copy of the tables, read through S3A's classic stream, as the reference for input metrics.
    builder.config(
        "spark.hadoop.fs.s3a.bucket." + CLASSIC_BUCKET + ".input.stream.type", "classic");
    // And one through AAL's analytics stream, where S3A has it.
    builder.config(
        "spark.hadoop.fs.s3a.bucket." + ANALYTICS_BUCKET + ".input.stream.type", "analytics");
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
  void parquetWrittenAndReadThroughS3aGivesTheRowsItWasWrittenFrom() throws Exception {
    spark.sql(ROWS).repartition(3).write().parquet(table);
    Dataset<Row> stored = spark.read().parquet(table);
    stored.createOrReplaceTempView("stored");
    spark.sql(ROWS).createOrReplaceTempView("generated");
    for (String query :
        List.of(
            "SELECT count(*), round(sum(amount), 2), min(id), max(id) FROM %s",
            "SELECT count(*) FROM %s WHERE amount > 50 AND category = 'c3'",
            "SELECT category, count(*), round(sum(amount), 2) FROM %s GROUP BY category"
                + " ORDER BY category",
            "SELECT bit_xor(xxhash64(id, category, amount)) FROM %s")) {
      assertEquals(answer(query.formatted("generated")), answer(query.formatted("stored")), query);
    }

    Configuration conf = spark.sparkContext().hadoopConfiguration();
    FileSystem fs = FileSystem.get(URI.create(table), conf);
    FileStatus part =
        java.util.Arrays.stream(fs.listStatus(new Path(table)))
            .filter(status -> status.getPath().getName().endsWith(".parquet"))
            .findFirst()
            .orElseThrow();
    Configuration classic = new Configuration(conf);
    classic.set("fs.s3a.input.stream.type", "classic");
    try (FileSystem classicFs = FileSystem.newInstance(URI.create(table), classic);
        FSDataInputStream ours = fs.open(part.getPath());
        FSDataInputStream theirs = classicFs.open(part.getPath())) {
      String stream = ours.getWrappedStream().getClass().getName();
      List<String> warnings = TestStore.seekwellLog("S3aStreamSupportCheck");
      if (s3aHasCustomStreams()) {
        assertEquals("io.seekwell.hadoop.SeekwellS3aInputStream", stream, "Seekwell is in use");
        assertEquals(List.of(), warnings);
      } else {
        // An S3A before 3.4.2 ignores the custom stream type: Seekwell says so, once per JVM.
        assertEquals("org.apache.hadoop.fs.s3a.S3AInputStream", stream);
        assertEquals(1, warnings.size(), warnings::toString);
        assertTrue(
            warnings.get(0).contains("WARN")
                && warnings.get(0).contains("Hadoop " + VersionInfo.getVersion())
                && warnings.get(0).contains("ignores fs.s3a.input.stream.type=custom"),
            warnings.get(0));
      }
      byte[] expected = new byte[(int) part.getLen()];
      byte[] actual = new byte[(int) part.getLen()];
      theirs.readFully(0, expected);
      ours.readFully(0, actual);
      assertArrayEquals(expected, actual);
    }
  }

  @Test
  void orcWrittenAndReadThroughS3aGivesTheRowsItWasWrittenFrom() {
    String orcTable = table + "-orc";
    spark.sql(ROWS).repartition(3).write().orc(orcTable);
    spark.read().orc(orcTable).createOrReplaceTempView("stored_orc");
    spark.sql(ROWS).createOrReplaceTempView("generated");
    for (String query :
        List.of(
            "SELECT count(*), round(sum(amount), 2), min(id), max(id) FROM %s",
            "SELECT category, count(*) FROM %s WHERE amount > 50 GROUP BY category"
                + " ORDER BY category",
            "SELECT bit_xor(xxhash64(id, category, amount)) FROM %s")) {
      assertEquals(
          answer(query.formatted("generated")), answer(query.formatted("stored_orc")), query);
    }
    if (s3aHasCustomStreams()) {
      // The bundle's ORC plug-in is in effect, with its own relocated ORC metadata classes.
      assertEquals(List.of(), TestStore.seekwellLog("ReadStrategySelector"));
      List<String> startup = TestStore.seekwellLog("S3SeekableInputStreamFactory");
      assertTrue(
          startup.stream().anyMatch(line -> line.matches(".*format plug-ins \\[.*\\borc\\b.*")),
          startup::toString);
    }
  }

  /**
   * Spark's input per stage (its UI's "Input" column): the records the same as through S3A's
   * classic stream, and every byte Seekwell gave the readers. The classic stream counts the bytes
   * of a vectored read in the threads that receive them, where Spark does not look: with Parquet's
   * vectored reads, a full scan shows little more than its footers through it. Where S3A has AAL's
   * {@code analytics} stream (the default of hadoop-aws 3.4.3 and 3.5.0), a third copy is read
   * through it: the same answers and records, its bytes reported as it counts them.
   */
  @Test
  void sparkReportsTheInputSeekwellGaveItsReaders() throws Exception {
    String parquet = table + "-metrics";
    String orc = table + "-metrics-orc";
    spark.sql(ROWS).repartition(3).write().parquet(parquet);
    spark.sql(ROWS).repartition(3).write().orc(orc);
    TestStore.bucket(CLASSIC_BUCKET);
    TestStore.copy(bucket, "tables/", CLASSIC_BUCKET);
    if (s3aHasCustomStreams()) {
      TestStore.bucket(ANALYTICS_BUCKET);
      TestStore.copy(bucket, "tables/", ANALYTICS_BUCKET);
    }
    for (String path : List.of(parquet, orc)) {
      String format = path.equals(parquet) ? "parquet" : "orc";
      spark.read().format(format).load(path).createOrReplaceTempView("ours");
      spark.read().format(format).load(classic(path)).createOrReplaceTempView("theirs");
      if (s3aHasCustomStreams()) {
        spark
            .read()
            .format(format)
            .load(path.replace(bucket, ANALYTICS_BUCKET))
            .createOrReplaceTempView("analytics");
      }
      for (String query :
          List.of(
              "SELECT count(*) FROM %s WHERE amount > 50 AND category = 'c3'",
              "SELECT category, round(sum(amount), 2) FROM %s GROUP BY category", FULL_SCAN)) {
        List<StageInputs.Input> theirs = inputs.of(spark, query.formatted("theirs"));
        List<StageInputs.Input> ours = inputs.of(spark, query.formatted("ours"));
        String what = format + ": " + query + ": classic " + theirs + ", Seekwell " + ours;
        System.out.println("Input of " + what);
        assertEquals(theirs.size(), ours.size(), what);
        for (int stage = 0; stage < ours.size(); stage++) {
          assertEquals(theirs.get(stage).records(), ours.get(stage).records(), what);
          assertTrue(ours.get(stage).bytes() >= theirs.get(stage).bytes(), what);
        }
        if (s3aHasCustomStreams()) {
          String analytics = query.formatted("analytics");
          assertEquals(answer(query.formatted("ours")), answer(analytics), analytics);
          List<StageInputs.Input> aal = inputs.of(spark, analytics);
          System.out.println("Input through the analytics stream: " + aal);
          assertEquals(
              ours.stream().map(StageInputs.Input::records).toList(),
              aal.stream().map(StageInputs.Input::records).toList(),
              format + ": " + analytics + ": " + aal);
        }
      }
      // A full scan reads about every byte of the files: not Parquet's page indexes, and ORC's
      // tails twice (its reader reads them before it reads the stripes). Before Hadoop 3.4.2 both
      // copies are read through the classic stream, whose figures are not these.
      if (s3aHasCustomStreams()) {
        long fileBytes = dataBytes(path, format);
        long fullScan = inputs.of(spark, FULL_SCAN.formatted("ours")).get(0).bytes();
        assertTrue(
            fullScan <= fileBytes * 1.02 && fullScan >= fileBytes * 0.98,
            format + ": " + fullScan + " bytes read of " + fileBytes + " in the files");
      }
    }
  }

  /** The bytes of the files of {@code format} under {@code path}. */
  private static long dataBytes(String path, String format) throws IOException {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    FileSystem fs = FileSystem.get(URI.create(path), conf);
    return java.util.Arrays.stream(fs.listStatus(new Path(path)))
        .filter(status -> status.getPath().getName().endsWith("." + format))
        .mapToLong(FileStatus::getLen)
        .sum();
  }

  /** The same object in the bucket read through S3A's classic stream. */
  private static String classic(String path) {
    return path.replace("s3a://" + bucket + "/", "s3a://" + CLASSIC_BUCKET + "/");
  }

  /** S3A has the custom input stream type from hadoop-aws 3.4.2 on; Spark 4.0 ships 3.4.1. */
  private static boolean s3aHasCustomStreams() {
    return VersionUtil.compareVersions(VersionInfo.getVersion(), "3.4.2") >= 0;
  }

  private static List<String> answer(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).toList();
  }
}
