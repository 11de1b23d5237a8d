package io.seekwell.spark;

import java.util.Map;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Publishes Seekwell's counters in Spark's metrics system. With {@code
 * spark.plugins=io.seekwell.spark.SeekwellMetricsPlugin}, the driver and every executor report the
 * counters of every Seekwell factory their JVM has made (each S3A file system, Iceberg FileIO copy
 * and catalog, closed ones included) as gauges named {@code
 * plugin.io.seekwell.spark.SeekwellMetricsPlugin.<counter>}, through whatever sinks Spark's metrics
 * system is configured with (JMX, the Prometheus servlet, CSV files). The counters are those of
 * {@link io.seekwell.common.metrics.Metric}, in lower case: {@code get_requests}, {@code
 * bytes_received}, {@code prefetched_bytes_unused}, and so on.
 *
 * <p>Spark makes the driver's and each executor's plug-in from it; it holds no state of its own.
 */
public final class SeekwellMetricsPlugin implements SparkPlugin {

  /** Made by Spark, by reflection. */
  public SeekwellMetricsPlugin() {}

  @Override
  public DriverPlugin driverPlugin() {
    return new DriverPlugin() {
      @Override
      public void registerMetrics(String appId, PluginContext context) {
        JvmCounters.register(context.metricRegistry());
      }
    };
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext context, Map<String, String> extraConf) {
        JvmCounters.register(context.metricRegistry());
      }
    };
  }
}
