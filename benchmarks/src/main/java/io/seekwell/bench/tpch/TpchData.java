package io.seekwell.bench.tpch;

import io.seekwell.bench.Directories;
import io.seekwell.bench.Options;
import io.seekwell.bench.store.Uploads;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The TPC-H data of one scale factor: generated once into the benchmark data directory (as local
 * Parquet, by {@code TpchGenerate} in a Spark driver), then put into the store twice: as Parquet
 * directories for S3A ({@code s3://tpch/parquet/sfN/TABLE/}) and as Iceberg tables of a new JDBC
 * catalog in the work directory, warehouse {@code s3://tpch/iceberg/sfN} ({@code TpchLoadIceberg}).
 * Immutable.
 */
final class TpchData {

  private static final String BUCKET = "tpch";
  private static final Duration GENERATE_DEADLINE = Duration.ofHours(2);
  private static final Duration LOAD_DEADLINE = Duration.ofHours(1);

  private final Path local;
  private final double scale;
  private final String catalog;

  private TpchData(Path local, double scale, Path work) {
    this.local = local;
    this.scale = scale;
    this.catalog = "jdbc:h2:file:" + work.resolve("catalog/tpch").toAbsolutePath();
  }

  /**
   * The data of {@code scale}, generated under {@code cache} first if missing; its catalog in
   * {@code work}.
   */
  static TpchData generate(SparkDriver spark, Path cache, double scale, Path work)
      throws IOException, InterruptedException {
    Path local = cache.resolve("tpch-sf" + scaleName(scale)).toAbsolutePath();
    if (!Files.isDirectory(local)) {
      System.out.println(
          "... generating TPC-H at scale factor " + scaleName(scale) + " in " + local);
      spark.run(
          "generate",
          SparkDriver.Format.ICEBERG,
          "TpchGenerate",
          List.of("--scale", String.valueOf(scale), "--out", local.toString()),
          GENERATE_DEADLINE);
    }
    return new TpchData(local, scale, work);
  }

  /** The scale factor as a name: {@code 1}, {@code 0.01}. */
  static String scaleName(double scale) {
    return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
  }

  private String prefix() {
    return "parquet/sf" + scaleName(scale) + "/";
  }

  /**
   * Puts every table's Parquet files under {@code s3://tpch/parquet/sfN/}, if missing, and deletes
   * any other object there (of an earlier generation), so that S3A's tables are these files alone.
   */
  void uploadParquet(S3Client admin) throws IOException {
    Uploads.ensureBucket(admin, BUCKET);
    List<Path> files;
    try (Stream<Path> all = Files.walk(local)) {
      files = all.filter(file -> file.getFileName().toString().endsWith(".parquet")).toList();
    }
    Set<String> keys = new HashSet<>();
    for (Path file : files) {
      String key = prefix() + local.relativize(file).toString().replace('\\', '/');
      keys.add(key);
      Uploads.putIfMissing(admin, BUCKET, key, Files.size(file), () -> RequestBody.fromFile(file));
    }
    for (S3Object object :
        admin.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix())).contents()) {
      if (!keys.contains(object.key())) {
        admin.deleteObject(b -> b.bucket(BUCKET).key(object.key()));
      }
    }
  }

  /** Loads the tables into Iceberg through the store at {@code endpoint}, in a new catalog. */
  void loadIceberg(SparkDriver spark, URI endpoint, Options options, Path work)
      throws IOException, InterruptedException {
    Directories.delete(work.resolve("catalog"));
    Files.createDirectories(work.resolve("catalog"));
    System.out.println("... loading TPC-H into Iceberg tables");
    List<String> args = new ArrayList<>(arguments(endpoint, options));
    args.addAll(List.of("--data", local.toString()));
    spark.run("load-iceberg", SparkDriver.Format.ICEBERG, "TpchLoadIceberg", args, LOAD_DEADLINE);
  }

  /**
   * The arguments that name the store at {@code endpoint} and its credentials, and where the data
   * is (the Iceberg catalog and warehouse), to a program of {@code benchmarks-spark}.
   */
  List<String> arguments(URI endpoint, Options options) {
    return List.of(
        "--endpoint",
        endpoint.toString(),
        "--access-key",
        options.required("access-key"),
        "--secret-key",
        options.required("secret-key"),
        "--catalog",
        catalog,
        "--warehouse",
        "s3://" + BUCKET + "/iceberg/sf" + scaleName(scale));
  }

  /** The arguments of {@code TpchRun} that say where S3A's tables are and the scale factor. */
  List<String> runArguments() {
    return List.of(
        "--parquet",
        "s3a://" + BUCKET + "/parquet/sf" + scaleName(scale),
        "--scale",
        String.valueOf(scale));
  }
}
