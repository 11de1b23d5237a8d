package io.seekwell.bench.spark;

import java.nio.file.Path;
import java.util.Set;
import org.apache.spark.sql.SparkSession;

/**
 * Loads the local Parquet directories of {@link TpchGenerate} ({@code --data DIR}) into Iceberg
 * tables of the JDBC catalog {@code --catalog} (warehouse {@code --warehouse}), in the store at
 * {@code --endpoint} (through Iceberg's own S3FileIO), with Iceberg's default write settings: one
 * data file per input file.
 */
public final class TpchLoadIceberg {

  private TpchLoadIceberg() {}

  /**
   * {@code --endpoint URL --access-key K --secret-key S --catalog JDBC-URI --warehouse S3-URI
   * --data DIR}.
   */
  public static void main(String[] args) throws java.io.IOException {
    Arguments arguments =
        Arguments.parse("TpchLoadIceberg", TpchSession.ARGUMENTS, Set.of("data"), args);
    Path data = Path.of(arguments.required("data")).toAbsolutePath();
    SparkSession.Builder builder = TpchSession.local("tpch-load-iceberg");
    TpchSession.of(arguments).icebergCatalog(builder, TpchPath.ICEBERG_DEFAULT.settings());
    try (SparkSession spark = builder.getOrCreate()) {
      String namespace = TpchSession.CATALOG + "." + TpchSession.NAMESPACE;
      spark.sql("CREATE NAMESPACE IF NOT EXISTS " + namespace);
      for (String table : TpchTables.names()) {
        spark.sql("DROP TABLE IF EXISTS " + namespace + "." + table);
        spark.sql(
            "CREATE TABLE "
                + namespace
                + "."
                + table
                + " USING iceberg AS SELECT * FROM parquet.`"
                + data.resolve(table).toUri()
                + "`");
        System.out.println("... loaded " + table + " into Iceberg");
      }
    }
  }
}
