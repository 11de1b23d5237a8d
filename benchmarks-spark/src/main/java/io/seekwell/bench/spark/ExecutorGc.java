package io.seekwell.bench.spark;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Garbage-collection time of the executor JVMs, as Spark's task metrics count it: the sum over
 * every ended task of the time its executor's JVM spent in GC while it ran ({@code jvmGCTime}, the
 * {@code jvmGcTime} of the status API's stages). With one core per executor no two tasks of one JVM
 * overlap, so none is counted twice; collections between tasks are not counted.
 */
final class ExecutorGc extends SparkListener {

  private final SparkContext context;
  private final AtomicLong millis = new AtomicLong();

  private ExecutorGc(SparkContext context) {
    this.context = context;
  }

  /** A count of {@code context}'s executors' GC time from now on. */
  static ExecutorGc of(SparkContext context) {
    ExecutorGc gc = new ExecutorGc(context);
    context.addSparkListener(gc);
    return gc;
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    TaskMetrics metrics = taskEnd.taskMetrics();
    if (metrics != null) {
      millis.addAndGet(metrics.jvmGCTime());
    }
  }

  /**
   * The GC time of the tasks ended so far, in milliseconds, once Spark's listeners have taken every
   * event posted before this call: a job's task ends are posted before its action returns.
   */
  long settledMillis() throws TimeoutException {
    context.listenerBus().waitUntilEmpty();
    return millis.get();
  }
}
