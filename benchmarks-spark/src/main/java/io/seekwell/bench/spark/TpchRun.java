package io.seekwell.bench.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs TPC-H queries in a fresh Spark application through one read path, {@code --rounds} times in
 * order, and writes a line per query and round to {@code --out}: its wall time, its answer's row
 * count and digest ({@link Answer}), the CPU time of the driver and of the executors ({@link
 * ProcessCpu}), and the GETs and bytes the store's proxy counted ({@link StoreCounters}). The first
 * round's answers go to {@code --results DIR/qNN.txt}.
 *
 * <p>Iceberg paths read the tables of the JDBC catalog {@code --catalog}; S3A paths read the
 * Parquet directories {@code s3a://tpch/parquet/TABLE}, as temporary views.
 */
public final class TpchRun {

  /** The columns of {@code --out}, tab-separated, after a header line of these names. */
  static final String HEADER =
      "round\tquery\tmillis\trows\tdigest\tdriver_cpu_ms\texecutor_cpu_ms\tgets\tbytes";

  private TpchRun() {}

  /**
   * {@code --path NAME --endpoint URL --access-key K --secret-key S --catalog JDBC-URI --out FILE
   * --results DIR --queries 1,2,… [--rounds 3] [--executors 2] [--counters URL] [--seekwell
   * key=value,…]}.
   */
  public static void main(String[] args) throws Exception {
    Arguments arguments =
        Arguments.parse(
            "TpchRun",
            Set.of(
                "path",
                "endpoint",
                "access-key",
                "secret-key",
                "catalog",
                "out",
                "results",
                "rounds",
                "queries",
                "executors",
                "counters",
                "seekwell"),
            args);
    TpchPath path = TpchPath.of(arguments.required("path"));
    int rounds = arguments.integer("rounds", 3);
    List<Integer> queries = queries(arguments.required("queries"));
    Path out = Path.of(arguments.required("out"));
    Path results = Files.createDirectories(Path.of(arguments.required("results")));
    String counters = arguments.text("counters", "");
    StoreCounters store = new StoreCounters(counters.isEmpty() ? null : URI.create(counters));
    try (SparkSession spark =
            TpchSession.of(arguments)
                .cluster(
                    "tpch-" + path.label(),
                    path,
                    arguments.integer("executors", 2),
                    arguments.pairs("seekwell"));
        PrintWriter lines = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
      register(spark, path);
      lines.println(HEADER);
      for (int round = 1; round <= rounds; round++) {
        for (int query : queries) {
          String name = String.format("q%02d", query);
          long[] before = store.read();
          ProcessCpu cpu = ProcessCpu.now();
          long start = System.nanoTime();
          List<Row> rows = spark.sql(text(name)).collectAsList();
          long millis = (System.nanoTime() - start) / 1_000_000;
          ProcessCpu used = ProcessCpu.now().since(cpu);
          long[] after = store.read();
          Answer answer = Answer.of(rows);
          if (round == 1) {
            Files.write(results.resolve(name + ".txt"), answer.lines(), StandardCharsets.UTF_8);
          }
          lines.printf(
              "%d\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%d%n",
              round,
              name,
              millis,
              rows.size(),
              answer.digest(),
              used.driverMillis(),
              used.executorMillis(),
              after[0] - before[0],
              after[1] - before[1]);
          lines.flush();
          System.out.printf(
              "... %s round %d %s: %d ms, %d rows%n",
              path.label(), round, name, millis, rows.size());
        }
      }
    }
  }

  private static void register(SparkSession spark, TpchPath path) {
    if (path.iceberg()) {
      spark.sql("USE " + TpchSession.CATALOG + "." + TpchSession.NAMESPACE);
      return;
    }
    for (String table : TpchTables.names()) {
      spark
          .read()
          .parquet("s3a://" + TpchSession.BUCKET + "/parquet/" + table)
          .createOrReplaceTempView(table);
    }
  }

  /** The query numbers of {@code list}, such as {@code 1,6,22}. */
  static List<Integer> queries(String list) {
    List<Integer> queries = new ArrayList<>();
    for (String number : list.split(",")) {
      int query = Integer.parseInt(number.trim());
      if (query < 1 || query > 22) {
        throw new IllegalArgumentException("TpchRun: the queries are 1 to 22: " + list);
      }
      queries.add(query);
    }
    return queries;
  }

  private static String text(String name) {
    String resource = "/tpch/" + name + ".sql";
    try (InputStream in = TpchRun.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("No query text " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
