package io.seekwell.bench.spark;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs TPC-H queries in a fresh Spark application through one read path, {@code --rounds} times in
 * order, and writes a line per query and round to {@code --out}: its wall time, its answer's row
 * count and digest ({@link Answer}), the CPU time of the driver and of the executors ({@link
 * ProcessCpu}), the executors' GC time ({@link ExecutorGc}), and the GETs and bytes the store's
 * proxy counted ({@link StoreCounters}). The first round's answers go to {@code --results
 * DIR/qNN.txt}.
 *
 * <p>Iceberg paths read the tables of the JDBC catalog {@code --catalog}; S3A paths read the
 * Parquet directories {@code --parquet}{@code /TABLE}, as temporary views.
 */
public final class TpchRun {

  /** The header line of {@code --out}: the names of its tab-separated columns. */
  private static final String HEADER =
      "round\tquery\tmillis\trows\tdigest\tdriver_cpu_ms\texecutor_cpu_ms\texecutor_gc_ms\tgets"
          + "\tbytes";

  private TpchRun() {}

  /**
   * {@code --path NAME --endpoint URL --access-key K --secret-key S --catalog JDBC-URI --warehouse
   * S3-URI --parquet S3A-URI --scale SF --queries 1,2,… --counters URL --out FILE --results DIR
   * [--rounds 3] [--executor-memory-mb 2048] [--seekwell key=value,…]}: each worker of {@code
   * local-cluster} has {@code --executor-memory-mb} MB, and its executor as much.
   */
  public static void main(String[] args) throws Exception {
    Arguments arguments =
        Arguments.parse(
            "TpchRun",
            TpchSession.ARGUMENTS,
            Set.of(
                "path",
                "parquet",
                "scale",
                "out",
                "results",
                "rounds",
                "queries",
                "counters",
                "executor-memory-mb",
                "seekwell"),
            args);
    TpchPath path = TpchPath.of(arguments.required("path"));
    int rounds = arguments.integer("rounds", 3);
    List<Integer> queries = queries(arguments.required("queries"));
    QueryTexts texts = new QueryTexts(arguments.decimal("scale"));
    Path out = Path.of(arguments.required("out"));
    Path results = Files.createDirectories(Path.of(arguments.required("results")));
    StoreCounters store = new StoreCounters(URI.create(arguments.required("counters")));
    try (SparkSession spark =
            TpchSession.of(arguments)
                .cluster(
                    "tpch-" + path.label(),
                    path,
                    arguments.integer("executor-memory-mb", 2048),
                    arguments.pairs("seekwell"));
        PrintWriter lines = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
      requireExecutors(spark);
      ExecutorGc gc = ExecutorGc.of(spark.sparkContext());
      register(spark, path, arguments.required("parquet"));
      lines.println(HEADER);
      for (int round = 1; round <= rounds; round++) {
        for (int query : queries) {
          String name = String.format("q%02d", query);
          long[] before = store.settled();
          long gcBefore = gc.settledMillis();
          ProcessCpu cpu = ProcessCpu.now();
          long start = System.nanoTime();
          List<Row> rows = spark.sql(texts.text(query)).collectAsList();
          long millis = (System.nanoTime() - start) / 1_000_000;
          ProcessCpu used = ProcessCpu.now().since(cpu);
          long gcMillis = gc.settledMillis() - gcBefore;
          long[] after = store.settled();
          Answer answer = Answer.of(rows);
          if (round == 1) {
            Files.write(results.resolve(name + ".txt"), answer.lines(), StandardCharsets.UTF_8);
          }
          lines.printf(
              "%d\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d%n",
              round,
              name,
              millis,
              rows.size(),
              answer.digest(),
              used.driverMillis(),
              used.executorMillis(),
              gcMillis,
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

  /**
   * Fails unless every executor registered: the application starts without those still missing
   * after two minutes. An executor's block manager, which this counts, registers a moment after the
   * executor itself: it gets 30 seconds more.
   */
  private static void requireExecutors(SparkSession spark) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int executors;
    // The driver's block manager is listed with the executors'.
    while ((executors = spark.sparkContext().getExecutorMemoryStatus().size() - 1)
        < TpchSession.EXECUTORS) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "TpchRun: "
                + executors
                + " of "
                + TpchSession.EXECUTORS
                + " executors registered; see the workers' output under $SPARK_HOME/work");
      }
      Thread.sleep(100);
    }
  }

  private static void register(SparkSession spark, TpchPath path, String parquet) {
    if (path.iceberg()) {
      spark.sql("USE " + TpchSession.CATALOG + "." + TpchSession.NAMESPACE);
      return;
    }
    for (String table : TpchTables.names()) {
      spark.read().parquet(parquet + "/" + table).createOrReplaceTempView(table);
    }
  }

  /** The query numbers of {@code list}, such as {@code 1,6,22}. */
  static List<Integer> queries(String list) {
    List<Integer> queries = new ArrayList<>();
    for (String number : list.split(",")) {
      int query;
      try {
        query = Integer.parseInt(number.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("TpchRun: --queries takes numbers: " + list, e);
      }
      if (query < 1 || query > 22) {
        throw new IllegalArgumentException("TpchRun: the queries are 1 to 22: " + list);
      }
      queries.add(query);
    }
    return queries;
  }
}
