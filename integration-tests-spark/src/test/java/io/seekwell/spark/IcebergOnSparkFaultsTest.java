package io.seekwell.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import io.seekwell.testing.S3Endpoint;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Spark queries over Iceberg tables whose reads through {@code SeekwellS3FileIO} meet stalled
 * connections: a {@link FaultProxy} in front of MinIO, with S3's time to first byte and bandwidth
 * per connection, stalls a fraction of the connections of the Seekwell catalogs (their {@code
 * s3.endpoint}; table metadata and data files alike), while the tables are written, and the
 * expected answers read, through Iceberg's own S3FileIO straight to MinIO. Every query must answer
 * as without faults, and Seekwell's counters must show that the stalls were met and got around.
 * Each faulted query set runs in a catalog of its own, so its FileIO starts cold, as on a new Spark
 * application. The time each query took is printed to the test's output, for comparison; it is not
 * asserted.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IcebergOnSparkFaultsTest {

  private static final String LINEITEM = ".db.lineitem";
  private static final String PART = ".db.part";
  private static final String CATALOG = "spark.sql.catalog.";
  private static final String SEEKWELL = SeekwellS3FileIO.class.getName();

  private static FaultProxy proxy;
  private static SparkSession spark;
  private static Map<String, String> catalogSettings;
  private static int catalogs;
  private static String lineitemMetadata;
  private static String partMetadata;
  private static Map<String, List<String>> expected;

  @BeforeAll
  static void start() throws IOException {
    String bucket = TestStore.bucket("spark-iceberg-faults");
    S3Endpoint endpoint = TestStore.endpoint();
    proxy = FaultProxy.start(endpoint.uri());
    // S3's pace: 25 ms to the first byte, about 90 MB/s per connection.
    proxy.delayRequests(Duration.ofMillis(25));
    proxy.limitBandwidth(90_000_000);
    catalogSettings = new LinkedHashMap<>();
    catalogSettings.put("", "org.apache.iceberg.spark.SparkCatalog");
    catalogSettings.put(".type", "jdbc");
    catalogSettings.put(".io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    catalogSettings.put(".cache-enabled", "false");
    catalogSettings.put(".uri", "jdbc:h2:mem:spark-iceberg-faults;DB_CLOSE_DELAY=-1");
    catalogSettings.put(".warehouse", "s3://" + bucket + "/wh");
    catalogSettings.put(".s3.endpoint", endpoint.uri().toString());
    catalogSettings.put(".s3.path-style-access", "true");
    catalogSettings.put(".s3.access-key-id", endpoint.accessKey());
    catalogSettings.put(".s3.secret-access-key", endpoint.secretKey());
    catalogSettings.put(".client.region", "us-east-1");
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("seekwell-iceberg-faults")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .getOrCreate();
    String plain = catalog(Map.of());
    writeTables(plain);
    lineitemMetadata = metadataFile(plain + LINEITEM);
    partMetadata = metadataFile(plain + PART);
    expected = new LinkedHashMap<>();
    queries(plain).forEach((name, query) -> expected.put(name, answer(query)));
  }

  @AfterAll
  static void stop() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  /**
   * A line-item table of 4 data files of about 24 MB with row groups of 1 MiB (the query set sends
   * over a thousand GETs, most of a column chunk each), and a part table to join it with.
   */
  private static void writeTables(String catalog) {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS " + catalog + ".db");
    spark.sql(
        "CREATE TABLE "
            + catalog
            + LINEITEM
            + " (orderkey BIGINT, partkey INT, quantity INT, price DOUBLE, discount DOUBLE,"
            + " shipmode STRING, shipdate DATE, comment STRING) USING iceberg"
            + " TBLPROPERTIES ('write.parquet.row-group-size-bytes'='1048576',"
            + " 'write.distribution-mode'='none')");
    spark.sql(
        "INSERT INTO "
            + catalog
            + LINEITEM
            + " SELECT id AS orderkey, CAST(xxhash64(id, 1) % 2000 + 2000 AS INT) AS partkey,"
            + " CAST(id * 7 % 50 + 1 AS INT) AS quantity,"
            + " round((id * 131 % 100000) / 100.0 + 900, 2) AS price,"
            + " (id * 17 % 11) / 100.0 AS discount,"
            + " element_at(array('AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'),"
            + " CAST(id % 7 + 1 AS INT)) AS shipmode,"
            + " date_add(DATE'1993-01-01', CAST(id * 13 % 2500 AS INT)) AS shipdate,"
            + " substr(sha1(CAST(id AS STRING)), 1, 24) AS comment"
            + " FROM range(0, 4800000, 1, 4)");
    spark.sql(
        "CREATE TABLE "
            + catalog
            + PART
            + " USING iceberg AS SELECT CAST(id AS INT) AS partkey,"
            + " concat(CASE WHEN id % 5 = 0 THEN 'PROMO ' ELSE 'STANDARD ' END, 'BRASS') AS type"
            + " FROM range(0, 4000, 1, 2)");
  }

  /** Aggregations, filters and joins in the manner of TPC-H queries 1, 6, 12 and 14. */
  private static Map<String, String> queries(String catalog) {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put(
        "q6 filter and sum",
        "SELECT round(sum(price * discount), 2) FROM "
            + catalog
            + LINEITEM
            + " WHERE shipdate >= DATE'1994-01-01' AND shipdate < DATE'1995-01-01'"
            + " AND discount BETWEEN 0.05 AND 0.07 AND quantity < 24");
    queries.put(
        "q1 group by",
        "SELECT shipmode, count(*), sum(quantity), round(avg(price), 4) FROM "
            + catalog
            + LINEITEM
            + " WHERE shipdate <= DATE'1998-09-01' GROUP BY shipmode ORDER BY shipmode");
    queries.put(
        "q14 join",
        "SELECT round(100.0 * sum(CASE WHEN p.type LIKE 'PROMO%' THEN l.price * (1 - l.discount)"
            + " ELSE 0 END) / sum(l.price * (1 - l.discount)), 6) FROM "
            + catalog
            + LINEITEM
            + " l JOIN "
            + catalog
            + PART
            + " p ON l.partkey = p.partkey"
            + " WHERE l.shipdate >= DATE'1995-09-01' AND l.shipdate < DATE'1995-10-01'");
    queries.put(
        "q12 filter and group by",
        "SELECT shipmode, count(*), count(DISTINCT orderkey % 1000) FROM "
            + catalog
            + LINEITEM
            + " WHERE shipmode IN ('MAIL', 'SHIP') AND shipdate >= DATE'1994-01-01'"
            + " AND shipdate < DATE'1996-01-01' GROUP BY shipmode ORDER BY shipmode");
    queries.put("full-scan hash", "SELECT bit_xor(xxhash64(*)) FROM " + catalog + LINEITEM);
    return queries;
  }

  @Test
  @Order(1)
  void withoutFaultsSeekwellAnswersAsIcebergsFileIo() {
    MetricsSnapshot metrics = runQueries("no faults", seekwellCatalog(Map.of()));
    assertTrue(metrics.get(Metric.GET_REQUESTS) >= 100, metrics::toString);
    assertEquals(0, proxy.faultedConnections());
  }

  @Test
  @Order(2)
  void withTwoPercentOfConnectionsStalledEveryQueryAnswersTheSame() {
    runStalled(0.02, 2, Map.of());
  }

  @Test
  @Order(3)
  void withAQuarterOfConnectionsStalledEveryQueryAnswersTheSame() {
    runStalled(0.25, 4, Map.of());
  }

  private static void runStalled(double fraction, long seed, Map<String, String> settings) {
    int faultedBefore = proxy.faultedConnections();
    proxy.faultConnections(ConnectionFault.STALL_BEFORE_HEADERS, fraction, seed);
    MetricsSnapshot metrics;
    try {
      metrics =
          runQueries(
              Math.round(fraction * 100) + "% stalled " + settings.values(),
              seekwellCatalog(settings));
    } finally {
      proxy.stopFaultingConnections();
    }
    int stalled = proxy.faultedConnections() - faultedBefore;
    assertTrue(stalled > 0, "no connection was stalled");
    // A stalled GET ends by a copy that answered first, or by its headers timeout and a retry.
    assertTrue(metrics.get(Metric.HEDGED_GETS) > 0, metrics::toString);
    assertTrue(metrics.get(Metric.HEDGES_WON) + metrics.get(Metric.RETRIES) > 0, metrics::toString);
  }

  /**
   * A catalog of its own (so a FileIO of its own, which starts cold) over the tables, its settings
   * those of the catalog that wrote them, then {@code settings}; returns its name.
   */
  private static String catalog(Map<String, String> settings) {
    String name = "faults" + catalogs++;
    catalogSettings.forEach((key, value) -> spark.conf().set(CATALOG + name + key, value));
    settings.forEach((key, value) -> spark.conf().set(CATALOG + name + key, value));
    return name;
  }

  /** A catalog reading through {@code SeekwellS3FileIO} and the proxy, with {@code settings}. */
  private static String seekwellCatalog(Map<String, String> settings) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put(".io-impl", SEEKWELL);
    all.put(".s3.endpoint", proxy.uri().toString());
    all.putAll(settings);
    String catalog = catalog(all);
    // A JDBC catalog lists the tables of its own name only: this one registers the same tables.
    spark.sql("CREATE NAMESPACE " + catalog + ".db");
    register(catalog, LINEITEM, lineitemMetadata);
    register(catalog, PART, partMetadata);
    return catalog;
  }

  private static void register(String catalog, String table, String metadata) {
    spark.sql(
        "CALL "
            + catalog
            + ".system.register_table(table => '"
            + table.substring(1)
            + "', metadata_file => '"
            + metadata
            + "')");
  }

  private static String metadataFile(String table) {
    try {
      return ((org.apache.iceberg.HasTableOperations) Spark3Util.loadIcebergTable(spark, table))
          .operations()
          .current()
          .metadataFileLocation();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot load " + table, e);
    }
  }

  /**
   * Runs every query over {@code catalog}, checks its answer and prints how long it took; returns
   * the counters of the catalog's Seekwell FileIO.
   */
  private static MetricsSnapshot runQueries(String run, String catalog) {
    SeekwellS3FileIO io =
        assertInstanceOf(SeekwellS3FileIO.class, loadTable(catalog).io(), "Seekwell is in use");
    int connectionsBefore = proxy.connections();
    int faultedBefore = proxy.faultedConnections();
    long total = 0;
    for (Map.Entry<String, String> query : queries(catalog).entrySet()) {
      long started = System.nanoTime();
      List<String> answer = answer(query.getValue());
      long millis = (System.nanoTime() - started) / 1_000_000;
      total += millis;
      System.out.printf("[%s] %s: %d ms%n", run, query.getKey(), millis);
      assertEquals(expected.get(query.getKey()), answer, run + ": " + query.getKey());
    }
    MetricsSnapshot metrics = io.seekwellMetrics();
    System.out.printf(
        "[%s] total %d ms; connections %d, stalled %d; %s%n",
        run,
        total,
        proxy.connections() - connectionsBefore,
        proxy.faultedConnections() - faultedBefore,
        metrics);
    return metrics;
  }

  private static List<String> answer(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).toList();
  }

  private static org.apache.iceberg.Table loadTable(String catalog) {
    try {
      return Spark3Util.loadIcebergTable(spark, catalog + LINEITEM);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot load " + catalog + LINEITEM, e);
    }
  }
}
