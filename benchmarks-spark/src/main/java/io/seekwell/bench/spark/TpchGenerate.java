package io.seekwell.bench.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes the eight TPC-H tables at one scale factor as local Parquet directories, one per table
 * ({@code --out DIR}: {@code DIR/lineitem/part-….parquet} and so on), with Spark's default Parquet
 * settings (128 MiB row groups) and a few files for each large table. The directory appears only
 * once every table is written, so a run that stops half-way is redone, not used.
 */
public final class TpchGenerate {

  private TpchGenerate() {}

  /** {@code --scale SF --out DIR}. */
  public static void main(String[] args) throws IOException {
    Arguments arguments = Arguments.parse("TpchGenerate", Set.of(), Set.of("scale", "out"), args);
    double scale = arguments.decimal("scale");
    if (!(scale > 0)) {
      throw new IllegalArgumentException("TpchGenerate: --scale must be positive: " + scale);
    }
    Path out = Path.of(arguments.required("out")).toAbsolutePath();
    Path partial = out.resolveSibling(out.getFileName() + ".partial");
    try (SparkSession spark = TpchSession.local("tpch-generate").getOrCreate()) {
      JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
      for (String table : TpchTables.names()) {
        int files = TpchTables.files(table, scale);
        List<Integer> parts = IntStream.rangeClosed(1, files).boxed().toList();
        FlatMapFunction<Iterator<Integer>, Row> generate =
            part -> TpchTables.rows(table, scale, part.next(), files);
        JavaRDD<Row> rows = context.parallelize(parts, files).mapPartitions(generate);
        spark
            .createDataFrame(rows, TpchTables.schema(table))
            .write()
            .mode(SaveMode.Overwrite)
            .parquet(partial.resolve(table).toUri().toString());
        System.out.println("... generated " + table + " (" + files + " files)");
      }
    }
    Files.move(partial, out, StandardCopyOption.ATOMIC_MOVE);
  }
}
