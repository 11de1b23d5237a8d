package io.seekwell.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;

/**
 * Spark with executor JVMs of their own ({@code local-cluster[n,1,1024]}: Spark's standalone master
 * and {@code n} workers in this JVM, each launching one executor process, as a standalone cluster
 * or YARN places executors on a host).
 *
 * <p>The workers launch executors with the command Spark's launcher builds from {@code SPARK_HOME}
 * (a {@code jars} directory, kept empty here) and {@code SPARK_SCALA_VERSION}, both set for the
 * test JVM by the module's surefire configuration; the executors' class path is the test JVM's
 * ({@code spark.executor.extraClassPath}). Each executor writes its output, and Seekwell's log, in
 * its directory of the workers' work directory, {@code $SPARK_HOME/work/<application>/<executor>}.
 */
final class LocalCluster {

  private LocalCluster() {}

  /**
   * A session builder for an application named {@code name} on {@code executors} executor JVMs of
   * Spark's default 1 GiB, which starts once all have registered (or after two minutes, which the
   * tests that count processes notice).
   */
  static SparkSession.Builder builder(String name, int executors) {
    environment("SPARK_SCALA_VERSION");
    try {
      // Where a Spark distribution has its jars; empty, since the class path is this JVM's.
      Files.createDirectories(sparkHome().resolve("jars"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return SparkSession.builder()
        .master("local-cluster[" + executors + ",1,1024]")
        .appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.executor.memory", "1024m")
        .config("spark.cores.max", String.valueOf(executors))
        .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
        .config("spark.scheduler.maxRegisteredResourcesWaitingTime", "120s")
        .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
        // Relative: each executor's log of Seekwell goes to its own working directory. Spark adds
        // the --add-opens options Java 17 needs to the executors' command itself.
        .config("spark.executor.extraJavaOptions", "-Dseekwell.log.file=seekwell.log")
        .config("spark.sql.shuffle.partitions", "4");
  }

  /** What {@code task} gives in each of four tasks per executor of {@code executors}. */
  static List<Long> inTasks(
      SparkSession spark, int executors, MapPartitionsFunction<Long, Long> task) {
    return spark
        .range(0, 4L * executors, 1, 4 * executors)
        .mapPartitions(task, Encoders.LONG())
        .collectAsList();
  }

  /** The processes that ran four tasks per executor of {@code executors}. */
  static List<Long> taskProcesses(SparkSession spark, int executors) {
    return inTasks(spark, executors, ids -> List.of(ProcessHandle.current().pid()).iterator());
  }

  /** What Seekwell logged in each executor of {@code spark}'s application, by executor id. */
  static Map<String, List<String>> executorLogs(SparkSession spark) {
    Path application = sparkHome().resolve("work").resolve(spark.sparkContext().applicationId());
    Map<String, List<String>> logs = new TreeMap<>();
    try (Stream<Path> executors = Files.list(application)) {
      for (Path executor : (Iterable<Path>) executors::iterator) {
        Path log = executor.resolve("seekwell.log");
        logs.put(
            executor.getFileName().toString(),
            Files.exists(log) ? Files.readAllLines(log) : List.of());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return logs;
  }

  private static Path sparkHome() {
    return Path.of(environment("SPARK_HOME"));
  }

  private static String environment(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(
          name
              + " is not set: Spark's workers build the executors' command from it (the module's"
              + " surefire configuration sets it)");
    }
    return value;
  }
}
