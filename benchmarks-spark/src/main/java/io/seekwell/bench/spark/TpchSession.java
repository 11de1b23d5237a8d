package io.seekwell.bench.spark;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark sessions of the TPC-H programs: a local one that generates the data, and one per read
 * path on Spark's {@code local-cluster} (its standalone master and workers in this JVM, each worker
 * launching an executor JVM with this JVM's class path, as a cluster places executors on a host),
 * with Spark's settings at their defaults but for those the connectors' docs tell users to set.
 */
final class TpchSession {

  /** The Spark catalog of the Iceberg tables and its namespace. */
  static final String CATALOG = "tpch";

  static final String NAMESPACE = "tpch";

  /** The executor JVMs of a path's application, of one core each. */
  static final int EXECUTORS = 2;

  private final String endpoint;
  private final String accessKey;
  private final String secretKey;
  private final String catalogUri;
  private final String warehouse;

  private TpchSession(
      String endpoint, String accessKey, String secretKey, String catalogUri, String warehouse) {
    this.endpoint = endpoint;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.catalogUri = catalogUri;
    this.warehouse = warehouse;
  }

  /** The arguments every program that reads the store takes, besides its own. */
  static final Set<String> ARGUMENTS =
      Set.of("endpoint", "access-key", "secret-key", "catalog", "warehouse");

  /**
   * The store of {@code --endpoint}, {@code --access-key} and {@code --secret-key}, the JDBC
   * catalog {@code --catalog} and its warehouse {@code --warehouse}.
   */
  static TpchSession of(Arguments arguments) {
    return new TpchSession(
        arguments.required("endpoint"),
        arguments.required("access-key"),
        arguments.required("secret-key"),
        arguments.required("catalog"),
        arguments.required("warehouse"));
  }

  /** A session in this JVM on two threads, to generate and load data: not measured. */
  static SparkSession.Builder local(String app) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.datetime.java8API.enabled", "true");
  }

  /**
   * A session reading through {@code path}, on {@value #EXECUTORS} executor JVMs of one core each;
   * each worker of {@code executorMemoryMb} MB and its executor as large ({@code
   * spark.executor.memory}); {@code seekwell} settings go to Seekwell's stream on a Seekwell path
   * (as its docs name them: catalog properties {@code seekwell.*}, Hadoop properties {@code
   * fs.s3a.seekwell.*}).
   */
  SparkSession cluster(
      String app, TpchPath path, int executorMemoryMb, Map<String, String> seekwell) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local-cluster[" + EXECUTORS + ",1," + executorMemoryMb + "]")
            .appName(app)
            // No web UI: several drivers in a row on one host would race for its port.
            .config("spark.ui.enabled", "false")
            // The queries start once every executor has registered.
            .config("spark.cores.max", String.valueOf(EXECUTORS))
            .config("spark.executor.memory", executorMemoryMb + "m")
            .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
            .config("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s")
            .config("spark.executor.extraClassPath", System.getProperty("java.class.path"));
    if (path.iceberg()) {
      icebergCatalog(builder, path.settings());
      if (path.seekwell()) {
        seekwell.forEach((key, value) -> builder.config(catalog(".seekwell." + key), value));
      }
    } else {
      s3a(builder, path.settings());
      if (path.seekwell()) {
        seekwell.forEach(
            (key, value) -> builder.config("spark.hadoop.fs.s3a.seekwell." + key, value));
      }
    }
    return builder.getOrCreate();
  }

  /** Adds the Iceberg catalog {@value #CATALOG}, reading and writing through {@code io}. */
  void icebergCatalog(SparkSession.Builder builder, Map<String, String> io) {
    builder
        .config(catalog(""), "org.apache.iceberg.spark.SparkCatalog")
        .config(catalog(".type"), "jdbc")
        .config(catalog(".uri"), catalogUri)
        .config(catalog(".warehouse"), warehouse)
        .config(catalog(".s3.endpoint"), endpoint)
        .config(catalog(".s3.path-style-access"), "true")
        .config(catalog(".s3.access-key-id"), accessKey)
        .config(catalog(".s3.secret-access-key"), secretKey)
        .config(catalog(".client.region"), "us-east-1");
    io.forEach((key, value) -> builder.config(catalog("." + key), value));
  }

  private void s3a(SparkSession.Builder builder, Map<String, String> stream) {
    String prefix = "spark.hadoop.fs.s3a.";
    builder
        .config(prefix + "endpoint", endpoint)
        .config(prefix + "endpoint.region", "us-east-1")
        .config(prefix + "path.style.access", "true")
        .config(prefix + "connection.ssl.enabled", "false")
        .config(prefix + "access.key", accessKey)
        .config(prefix + "secret.key", secretKey)
        .config(
            prefix + "aws.credentials.provider",
            "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    stream.forEach((key, value) -> builder.config("spark.hadoop." + key, value));
  }

  private static String catalog(String suffix) {
    return "spark.sql.catalog." + CATALOG + suffix;
  }
}
