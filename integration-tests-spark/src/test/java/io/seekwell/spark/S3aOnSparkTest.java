package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.S3Endpoint;
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

  private static String table;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    String bucket = TestStore.bucket("spark-s3a");
    table = "s3a://" + bucket + "/tables/events";
    S3Endpoint endpoint = TestStore.endpoint();
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("seekwell-s3a")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4");
    s3a(endpoint).forEach((key, value) -> builder.config("spark.hadoop." + key, value));
    spark = builder.getOrCreate();
  }

  private static java.util.Map<String, String> s3a(S3Endpoint endpoint) {
    return java.util.Map.of(
        "fs.s3a.endpoint", endpoint.uri().toString(),
        "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false",
        "fs.s3a.access.key", endpoint.accessKey(),
        "fs.s3a.secret.key", endpoint.secretKey(),
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        "fs.s3a.input.stream.type", "custom",
        "fs.s3a.input.stream.custom.factory", "io.seekwell.hadoop.SeekwellStreamFactory",
        "fs.s3a.seekwell.physicalio.max.memory.limit", "8MB");
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

  /** S3A has the custom input stream type from hadoop-aws 3.4.2 on; Spark 4.0 ships 3.4.1. */
  private static boolean s3aHasCustomStreams() {
    return VersionUtil.compareVersions(VersionInfo.getVersion(), "3.4.2") >= 0;
  }

  private static List<String> answer(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).toList();
  }
}
