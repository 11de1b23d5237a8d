package io.seekwell.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The TPC-H data of one scale factor: generated once into the benchmark data directory (as local
 * Parquet, by {@code TpchGenerate} in a Spark driver), then put into the store twice: as Parquet
 * directories for S3A ({@code s3://tpch/parquet/TABLE/}) and as Iceberg tables of a JDBC catalog
 * kept in the work directory ({@code TpchLoadIceberg}).
 */
final class TpchData {

  static final String BUCKET = "tpch";

  private static final Duration GENERATE_DEADLINE = Duration.ofHours(2);
  private static final Duration LOAD_DEADLINE = Duration.ofHours(1);

  private TpchData() {}

  /** The local Parquet of {@code scale} under {@code cache}, generated first if missing. */
  static Path generate(SparkDriver spark, Path cache, double scale)
      throws IOException, InterruptedException {
    Path data = cache.resolve("tpch-sf" + scaleName(scale)).toAbsolutePath();
    if (!Files.isDirectory(data)) {
      System.out.println(
          "... generating TPC-H at scale factor " + scaleName(scale) + " in " + data);
      spark.run(
          "generate",
          SparkDriver.Format.ICEBERG,
          "TpchGenerate",
          List.of("--scale", String.valueOf(scale), "--out", data.toString()),
          GENERATE_DEADLINE);
    }
    return data;
  }

  /** The scale factor as a name: {@code 1}, {@code 0.01}. */
  static String scaleName(double scale) {
    return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
  }

  /** Puts every table's Parquet files at {@code s3://tpch/parquet/TABLE/FILE}, if missing. */
  static void uploadParquet(S3Client admin, Path data) throws IOException {
    Uploads.ensureBucket(admin, BUCKET);
    List<Path> files;
    try (Stream<Path> all = Files.walk(data)) {
      files = all.filter(file -> file.getFileName().toString().endsWith(".parquet")).toList();
    }
    for (Path file : files) {
      String key = "parquet/" + data.relativize(file).toString().replace('\\', '/');
      Uploads.putIfMissing(admin, BUCKET, key, Files.size(file), () -> RequestBody.fromFile(file));
    }
  }

  /**
   * Loads the tables into Iceberg (through the store at {@code endpoint}, with a new JDBC catalog
   * in {@code work}); the catalog's JDBC URI.
   */
  static String loadIceberg(SparkDriver spark, URI endpoint, Options options, Path data, Path work)
      throws IOException, InterruptedException {
    Path catalog = work.resolve("catalog").toAbsolutePath();
    Directories.delete(catalog);
    Files.createDirectories(catalog);
    String uri = "jdbc:h2:file:" + catalog.resolve("tpch");
    System.out.println("... loading TPC-H into Iceberg tables");
    List<String> args = new ArrayList<>(storeArguments(endpoint, options, uri));
    args.addAll(List.of("--data", data.toString()));
    spark.run("load-iceberg", SparkDriver.Format.ICEBERG, "TpchLoadIceberg", args, LOAD_DEADLINE);
    return uri;
  }

  /**
   * The arguments that name the store at {@code endpoint}, its credentials and the Iceberg catalog
   * {@code catalog} to a program of {@code benchmarks-spark}.
   */
  static List<String> storeArguments(URI endpoint, Options options, String catalog) {
    return List.of(
        "--endpoint",
        endpoint.toString(),
        "--access-key",
        options.required("access-key"),
        "--secret-key",
        options.required("secret-key"),
        "--catalog",
        catalog);
  }
}
