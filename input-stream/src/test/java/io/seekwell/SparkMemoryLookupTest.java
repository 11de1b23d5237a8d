package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@link SparkMemory} finds a running Spark, against a stand-in for Spark's classes compiled
 * here: a {@code SparkEnv} with one method whose parameter type is missing from the class path, as
 * Spark 4.3's distribution has ({@code getExternalUDFDispatcher} names a protobuf message it does
 * not ship).
 */
class SparkMemoryLookupTest {

  private static final String SPARK_CONF =
      """
      package org.apache.spark;
      public class SparkConf {
        private final double fraction;
        public SparkConf(double fraction) { this.fraction = fraction; }
        public double getDouble(String key, double defaultValue) {
          return key.equals("spark.memory.fraction") ? fraction : defaultValue;
        }
      }
      """;

  private static final String SPARK_ENV =
      """
      package org.apache.spark;
      public class SparkEnv {
        private static SparkEnv running;
        private final SparkConf conf;
        SparkEnv(SparkConf conf) { this.conf = conf; }
        public static SparkEnv get() { return running; }
        static void set(SparkEnv env) { running = env; }
        public SparkConf conf() { return conf; }
        public Object getExternalUDFDispatcher(org.apache.spark.udf.Specification specification) {
          return null;
        }
      }
      """;

  private static final String SPECIFICATION =
      """
      package org.apache.spark.udf;
      public class Specification {}
      """;

  private static final String STARTER =
      """
      package org.apache.spark;
      public class Starter {
        public static void start(double fraction) { SparkEnv.set(new SparkEnv(new SparkConf(fraction))); }
      }
      """;

  @TempDir Path classes;

  @Test
  void aRunningSparkWhoseEnvironmentNamesAMissingClassIsStillRead() throws Exception {
    try (URLClassLoader spark = compileSpark()) {
      Class<?> env = Class.forName("org.apache.spark.SparkEnv", false, spark);
      // What the stand-in reproduces: listing SparkEnv's methods fails on the missing class.
      assertThrows(NoClassDefFoundError.class, () -> env.getMethod("get"));

      assertEquals(Optional.empty(), SparkMemory.runningSparksMemoryFraction(spark));
      spark
          .loadClass("org.apache.spark.Starter")
          .getMethod("start", double.class)
          .invoke(null, 0.7);
      assertEquals(Optional.of(0.7), SparkMemory.runningSparksMemoryFraction(spark));
    }
  }

  @Test
  void noSparkOnTheClassPathIsNoBound() throws IOException {
    try (URLClassLoader empty =
        new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertEquals(Optional.empty(), SparkMemory.runningSparksMemoryFraction(empty));
    }
  }

  /**
   * The stand-in for Spark, compiled into {@link #classes}, its UDF specification class deleted.
   */
  private URLClassLoader compileSpark() throws IOException {
    Path sources = Files.createDirectories(classes.resolve("sources"));
    Path output = Files.createDirectories(classes.resolve("classes"));
    List<String> files =
        List.of(
            write(sources, "SparkConf.java", SPARK_CONF),
            write(sources, "SparkEnv.java", SPARK_ENV),
            write(sources, "Specification.java", SPECIFICATION),
            write(sources, "Starter.java", STARTER));
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    assertNotNull(compiler, "the tests run on a JDK, whose compiler builds the stand-in");
    String[] arguments =
        Stream.concat(Stream.of("-d", output.toString()), files.stream()).toArray(String[]::new);
    assertEquals(0, compiler.run(null, null, null, arguments), "the stand-in compiles");
    Path specification = output.resolve("org/apache/spark/udf/Specification.class");
    assertTrue(Files.deleteIfExists(specification), specification + " was compiled");
    return new URLClassLoader(
        new URL[] {output.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
  }

  private static String write(Path directory, String name, String source) throws IOException {
    return Files.writeString(directory.resolve(name), source).toString();
  }
}
