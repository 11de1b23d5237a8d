package io.seekwell.client;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.RequestOptions;

/**
 * Counts the resilience layer's decisions in the client's {@link Metrics} and, if a request asks
 * for it, in its stream's. Thread-safe, as {@link Metrics} is.
 */
final class RequestCounter {

  private final Metrics metrics;

  RequestCounter(Metrics metrics) {
    this.metrics = metrics;
  }

  /** Counts {@code metric} for the client and, if {@code options} ask for it, for the stream. */
  void count(Metric metric, RequestOptions options) {
    metrics.increment(metric);
    options.streamMetrics().ifPresent(stream -> stream.increment(metric));
  }

  /** Counts {@code metric} for the client only. */
  void countForClient(Metric metric) {
    metrics.increment(metric);
  }
}
