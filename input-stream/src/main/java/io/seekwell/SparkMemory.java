package io.seekwell;

import io.seekwell.PhysicalIOConfiguration.JvmBudget;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
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
    this(() -> runningSparksMemoryFraction(SparkMemory.class.getClassLoader()));
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

  /**
   * The {@code spark.memory.fraction} of the Spark running from {@code loader}'s classes; empty if
   * none runs. Each method is looked up alone: listing a Spark class's methods (as {@link
   * Class#getMethod} does) loads every type their signatures name, and one of Spark 4.3's {@code
   * SparkEnv} methods takes a protobuf message whose protobuf classes Spark's distribution does not
   * ship.
   */
  static Optional<Double> runningSparksMemoryFraction(ClassLoader loader) {
    Class<?> env;
    Class<?> sparkConf;
    try {
      env = Class.forName("org.apache.spark.SparkEnv", false, loader);
      sparkConf = Class.forName("org.apache.spark.SparkConf", false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      return Optional.empty();
    }
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      Object running = lookup.findStatic(env, "get", MethodType.methodType(env)).invoke();
      if (running == null) {
        return Optional.empty();
      }
      Object conf =
          lookup.findVirtual(env, "conf", MethodType.methodType(sparkConf)).invoke(running);
      MethodHandle getDouble =
          lookup.findVirtual(
              sparkConf,
              "getDouble",
              MethodType.methodType(double.class, String.class, double.class));
      return Optional.of(
          (double) getDouble.invoke(conf, "spark.memory.fraction", DEFAULT_FRACTION));
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      unreadable(e);
    } catch (Error e) {
      throw e;
    } catch (Throwable e) {
      // None of the three methods declares a checked exception.
      unreadable(e);
    }
    return Optional.empty();
  }

  private static void unreadable(Throwable e) {
    LOG.warn(
        "Spark's classes are on the class path, but its spark.memory.fraction could not be read"
            + " ({}); Seekwell's memory budget follows the heap alone",
        e.toString());
  }
}
