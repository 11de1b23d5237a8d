package io.seekwell.iceberg;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import org.apache.iceberg.metrics.MetricsContext;
import org.slf4j.LoggerFactory;

/**
 * The metrics context Iceberg's own S3 streams report to: Hadoop's file system statistics when
 * Hadoop is on the class path (as {@code S3FileIO} does), else none.
 */
final class IcebergMetrics {

  private static final String HADOOP_METRICS = "org.apache.iceberg.hadoop.HadoopMetricsContext";

  private IcebergMetrics() {}

  static MetricsContext context(Map<String, String> properties) {
    try {
      MetricsContext context =
          Class.forName(HADOOP_METRICS)
              .asSubclass(MetricsContext.class)
              .getConstructor(String.class)
              .newInstance("s3");
      context.initialize(properties);
      return context;
    } catch (ClassNotFoundException
        | LinkageError
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      LoggerFactory.getLogger(IcebergMetrics.class)
          .debug(
              "Iceberg's Hadoop metrics are not available, so none are reported: {}", e.toString());
      return MetricsContext.nullMetrics();
    }
  }
}
