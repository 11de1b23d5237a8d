package io.seekwell.bench.tpch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program of the {@code benchmarks-spark} module as a Spark driver JVM of its own, on the
 * class path a Spark user deploys for its table format (the module's build writes one per format),
 * as {@code spark-submit} would start it: with the module options Spark needs on Java 17, and
 * {@code SPARK_HOME} set for the workers of {@code local-cluster}, which launch the executors. The
 * driver's output goes to this JVM's, its log (standard error) to a file. Every run has a deadline:
 * a driver still running then is killed, with its executors, and the run fails. This JVM's system
 * properties named {@code spark.*} are the driver's too, as Spark settings (to observe a run, for
 * example {@code -Dspark.executor.extraJavaOptions=-XX:StartFlightRecording=...}).
 */
final class SparkDriver {

  /** The module options of Spark's launcher for Java 17, which the executors get from it. */
  private static final List<String> JAVA_OPTIONS =
      List.of(
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  /** This JVM's system properties named {@code spark.*}, as options of a JVM. */
  private static List<String> sparkProperties() {
    return System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith("spark."))
        .sorted()
        .map(name -> "-D" + name + "=" + System.getProperty(name))
        .toList();
  }

  /** The table format a driver reads, which decides its class path. */
  enum Format {
    ICEBERG,
    S3A;

    /** The format of the read path {@code path}: Iceberg's paths name it. */
    static Format of(String path) {
      return path.contains("iceberg") ? ICEBERG : S3A;
    }
  }

  private final Path module;
  private final Path work;

  /**
   * Drivers of the {@code benchmarks-spark} module built in {@code module}, with their logs and
   * Spark's home (its workers' directories) under {@code work}.
   */
  SparkDriver(Path module, Path work) throws IOException {
    // Absolute: the executors resolve their class path in their own working directories.
    this.module = module.toAbsolutePath();
    this.work = Files.createDirectories(work.toAbsolutePath());
    // Where a Spark distribution keeps its jars: empty, as the class path is given in full.
    Files.createDirectories(work.resolve("spark-home/jars"));
  }

  /**
   * Runs {@code program} (a class of {@code io.seekwell.bench.spark}) with {@code args} on the
   * class path of {@code format}, its log in {@code name}.log.
   *
   * @throws IOException if it fails or is still running after {@code deadline}
   */
  void run(String name, Format format, String program, List<String> args, Duration deadline)
      throws IOException, InterruptedException {
    String classPath =
        module.resolve("target/classes")
            + ":"
            + Files.readString(
                    module.resolve(
                        "target/classpath-"
                            + format.name().toLowerCase(java.util.Locale.ROOT)
                            + ".txt"),
                    StandardCharsets.UTF_8)
                .trim();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx2g");
    command.addAll(JAVA_OPTIONS);
    command.addAll(sparkProperties());
    command.add("-cp");
    command.add(classPath);
    command.add("io.seekwell.bench.spark." + program);
    command.addAll(args);
    Path log = work.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT)
            .redirectError(log.toFile());
    builder.environment().put("SPARK_HOME", work.resolve("spark-home").toString());
    builder.environment().put("SPARK_SCALA_VERSION", "2.13");
    Process driver = builder.start();
    // An interrupted run (Ctrl-C) ends this JVM without the finally below: stop the driver then
    // too.
    Thread stop = new Thread(() -> destroy(driver), "spark-driver-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      if (!driver.waitFor(deadline.toSeconds(), TimeUnit.SECONDS)) {
        throw new IOException(
            program + " (" + name + ") still ran after " + deadline + "; its log: " + log);
      }
      if (driver.exitValue() != 0) {
        throw new IOException(
            program
                + " ("
                + name
                + ") failed with exit code "
                + driver.exitValue()
                + "; its log: "
                + log);
      }
    } finally {
      destroy(driver);
      Runtime.getRuntime().removeShutdownHook(stop);
    }
  }

  /** Stops the driver and the executors it started. */
  private static void destroy(Process driver) {
    driver.descendants().forEach(ProcessHandle::destroyForcibly);
    driver.destroyForcibly();
  }
}
