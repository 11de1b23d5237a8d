package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.S3Endpoint;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.IcebergBuild;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Spark 4.1 with Iceberg 1.11 as users deploy them ({@code iceberg-spark-runtime}, {@code
 * iceberg-aws-bundle}, and Seekwell's Iceberg bundle after them on the class path), one JDBC
 * catalog over MinIO read by three sessions: with Iceberg's S3FileIO, with {@code
 * io-impl=SeekwellS3FileIO}, and with Seekwell limited to 8 MB so that its cache evicts. Every
 * query must answer the same in all three.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IcebergOnSparkTest {

  private static final String TABLE = EventsTable.NAME;
  private static final String SEEKWELL = SeekwellS3FileIO.class.getName();

  private static String bucket;
  private static SparkSession iceberg;
  private static SparkSession seekwell;
  private static SparkSession tight;
  private static StageInputs inputs;

  @BeforeAll
  static void start() {
    bucket = TestStore.bucket("spark-iceberg");
    S3Endpoint endpoint = TestStore.endpoint();
    String catalog = "spark.sql.catalog.lake";
    iceberg =
        SparkSession.builder()
            .master("local[2]")
            .appName("seekwell-iceberg")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config(catalog, "org.apache.iceberg.spark.SparkCatalog")
            .config(catalog + ".type", "jdbc")
            .config(catalog + ".io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
            // Each session's catalog sees the others' commits at once.
            .config(catalog + ".cache-enabled", "false")
            .config(catalog + ".uri", "jdbc:h2:mem:spark-iceberg;DB_CLOSE_DELAY=-1")
            .config(catalog + ".warehouse", "s3://" + bucket + "/wh")
            .config(catalog + ".s3.endpoint", endpoint.uri().toString())
            .config(catalog + ".s3.path-style-access", "true")
            .config(catalog + ".s3.access-key-id", endpoint.accessKey())
            .config(catalog + ".s3.secret-access-key", endpoint.secretKey())
            .config(catalog + ".client.region", "us-east-1")
            .getOrCreate();
    seekwell = iceberg.newSession();
    seekwell.conf().set(catalog + ".io-impl", SEEKWELL);
    tight = iceberg.newSession();
    tight.conf().set(catalog + ".io-impl", SEEKWELL);
    tight.conf().set(catalog + ".seekwell.physicalio.max.memory.limit", "8MB");
    inputs = StageInputs.of(iceberg.sparkContext());
  }

  @AfterAll
  static void stop() {
    if (iceberg != null) {
      iceberg.stop();
    }
  }

  @Test
  @Order(1)
  void writesDeletesAndInsertsGiveTheSameTableThroughEitherFileIo() {
    iceberg.sql("CREATE NAMESPACE IF NOT EXISTS lake.db");
    iceberg.sql(
        "CREATE TABLE " + TABLE + " (id BIGINT, category STRING, amount DOUBLE) USING iceberg");
    iceberg.sql("INSERT INTO " + TABLE + " " + EventsTable.rows(0, 600_000, 2));
    iceberg.sql("DELETE FROM " + TABLE + " WHERE id % 10 = 3");
    seekwell.sql("INSERT INTO " + TABLE + " " + EventsTable.rows(600_000, 700_000, 2));
    seekwell.sql("DELETE FROM " + TABLE + " WHERE id BETWEEN 650000 AND 650999");

    for (Map.Entry<String, String> query : EventsTable.queries().entrySet()) {
      List<String> expected = EventsTable.answer(iceberg, query.getValue());
      assertEquals(expected, EventsTable.answer(seekwell, query.getValue()), query.getKey());
      assertEquals(
          expected, EventsTable.answer(tight, query.getValue()), query.getKey() + ", 8 MB");
    }
    assertEquals(
        "[[639000]]", EventsTable.answer(seekwell, "SELECT count(*) FROM " + TABLE).toString());

    SeekwellS3FileIO io =
        assertInstanceOf(
            SeekwellS3FileIO.class, EventsTable.load(seekwell).io(), "Seekwell is in use");
    assertTrue(io.seekwellMetrics().get(Metric.GET_REQUESTS) > 0, io.seekwellMetrics()::toString);
  }

  /**
   * Spark's input per stage (its UI's "Input" column): the records the same as through S3FileIO,
   * and the bytes Seekwell gave the readers. Iceberg's own stream counts the bytes of positioned
   * and tail reads from 1.12 on, and then reports the same bytes; before, it counted only those of
   * its {@code read} calls, not the column chunks and footers Iceberg's Parquet reader reads by
   * range: a full scan showed a few KB through it.
   */
  @Test
  @Order(2)
  void sparkReportsTheInputSeekwellGaveItsReaders() throws Exception {
    long dataBytes =
        Long.parseLong(
            EventsTable.answer(
                    iceberg, "SELECT sum(file_size_in_bytes) FROM " + TABLE + ".data_files")
                .get(0)
                .replaceAll("[\\[\\]]", ""));
    for (String name : List.of("sum", "filter", "group by", "full-scan hash")) {
      String query = EventsTable.queries().get(name);
      List<StageInputs.Input> theirs = inputs.of(iceberg, query);
      List<StageInputs.Input> ours = inputs.of(seekwell, query);
      System.out.println("Input of " + name + ": S3FileIO " + theirs + ", Seekwell " + ours);
      assertEquals(theirs.size(), ours.size(), name + ": " + theirs + ", " + ours);
      if (s3FileIoCountsRangeReads()) {
        assertEquals(theirs, ours, name);
      }
      for (int stage = 0; stage < ours.size(); stage++) {
        assertEquals(theirs.get(stage).records(), ours.get(stage).records(), name);
        assertTrue(ours.get(stage).bytes() >= theirs.get(stage).bytes(), name);
      }
      // What the readers were given, not what was fetched: the same in any memory.
      assertEquals(ours, inputs.of(tight, query), name + ", 8 MB");
    }
    // A full scan reads every column chunk and footer: all of the data files but their page
    // indexes and magic numbers.
    long fullScan = inputs.of(seekwell, EventsTable.queries().get("full-scan hash")).get(0).bytes();
    assertTrue(
        fullScan <= dataBytes && fullScan >= dataBytes * 0.98,
        fullScan + " bytes read of " + dataBytes + " in the data files");
  }

  /** Whether Iceberg's own S3 stream counts the bytes of range reads: from Iceberg 1.12 on. */
  private static boolean s3FileIoCountsRangeReads() {
    String[] version = IcebergBuild.version().split("[.]");
    return Integer.parseInt(version[0]) > 1 || Integer.parseInt(version[1]) >= 12;
  }

  @Test
  @Order(3)
  void dropTablePurgeRemovesEveryObjectOfTheTable() {
    seekwell.sql("DROP TABLE " + TABLE + " PURGE");
    assertEquals(List.of(), TestStore.keys(bucket, "wh/db/events/"));
  }
}
