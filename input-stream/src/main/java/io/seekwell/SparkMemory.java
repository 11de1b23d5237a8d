package io.seekwell;

import io.seekwell.PhysicalIOConfiguration.JvmBudget;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's say in the budget. Spark keeps 300 MiB of an executor's heap for itself and gives {@code
 * spark.memory.fraction} (0.6 by default) of the rest to its memory manager, for execution and
 * storage; the remainder, its "user memory", holds every other object of the tasks: the Parquet
 * reader's page buffers and Seekwell's blocks among them. Seekwell takes at most half of the user
 * memory, and at least {@link #FLOOR}. Spark is asked through its running {@code SparkEnv} by
 * reflection, so nothing of Spark is needed to build or ship Seekwell; a JVM without Spark, or
 * before Spark has started, gets no bound from it.
 */
final class SparkMemory implements EngineMemory {

  private static final Logger LOG = LoggerFactory.getLogger(SparkMemory.class);

  /** The heap Spark keeps for itself before sizing its memory manager. */
  static final long RESERVED = 300L << 20;

  /** {@code spark.memory.fraction}'s default. */
  static final double DEFAULT_FRACTION = 0.6;

  /** The least the bound is, however little user memory Spark leaves. */
  static final long FLOOR = 16L << 20;

  private final Supplier<Optional<Double>> memoryFraction;

  /** Asks the Spark running in this JVM, if any. */
  SparkMemory() {
    this(SparkMemory::runningSparksMemoryFraction);
  }

  /** Takes {@code spark.memory.fraction} from {@code memoryFraction}: empty when no Spark runs. */
  SparkMemory(Supplier<Optional<Double>> memoryFraction) {
    this.memoryFraction = memoryFraction;
  }

  @Override
  public Optional<JvmBudget> blockMemoryLimit(long maxHeap) {
    return memoryFraction
        .get()
        .map(
            fraction -> {
              long bytes = limit(maxHeap, fraction);
              String made =
                  bytes == FLOOR ? "at least 16 MiB, in Spark" : "half of Spark's user memory";
              return new JvmBudget(bytes, made + ", spark.memory.fraction " + fraction);
            });
  }

  /**
   * Half of what Spark leaves outside its memory manager in a heap of {@code maxHeap} bytes when
   * {@code spark.memory.fraction} is {@code fraction}; at least {@link #FLOOR}.
   */
  static long limit(long maxHeap, double fraction) {
    double userMemory = Math.max(0, maxHeap - RESERVED) * (1 - fraction);
    return Math.max(FLOOR, (long) (userMemory / 2));
  }

  /** The running Spark's {@code spark.memory.fraction}; empty if no Spark runs in this JVM. */
  private static Optional<Double> runningSparksMemoryFraction() {
    Class<?> env;
    try {
      env = Class.forName("org.apache.spark.SparkEnv", false, SparkMemory.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return Optional.empty();
    }
    try {
      Object running = env.getMethod("get").invoke(null);
      if (running == null) {
        return Optional.empty();
      }
      Object conf = env.getMethod("conf").invoke(running);
      Method getDouble = conf.getClass().getMethod("getDouble", String.class, double.class);
      return Optional.of(
          (Double) getDouble.invoke(conf, "spark.memory.fraction", DEFAULT_FRACTION));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.warn(
          "Spark's classes are on the class path, but its spark.memory.fraction could not be read"
              + " ({}); Seekwell's memory budget follows the heap alone",
          e.toString());
      return Optional.empty();
    }
  }
}
