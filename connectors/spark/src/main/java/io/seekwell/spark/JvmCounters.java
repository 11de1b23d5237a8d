package io.seekwell.spark;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.common.metrics.Metric;
import java.util.Locale;

/** The JVM's Seekwell counters as gauges of a Dropwizard registry, the kind Spark reports. */
final class JvmCounters {

  private JvmCounters() {}

  /**
   * Registers one gauge per {@link Metric} in {@code registry}, named {@link #name}, each reading
   * the counter of every factory of the JVM ({@link S3SeekableInputStreamFactory#jvmMetrics()}).
   */
  static void register(MetricRegistry registry) {
    for (Metric metric : Metric.values()) {
      registry.register(
          name(metric), (Gauge<Long>) () -> S3SeekableInputStreamFactory.jvmMetrics().get(metric));
    }
  }

  /** The gauge's name: the counter's, in lower case ({@code prefetched_bytes_unused}). */
  static String name(Metric metric) {
    return metric.name().toLowerCase(Locale.ROOT);
  }
}
