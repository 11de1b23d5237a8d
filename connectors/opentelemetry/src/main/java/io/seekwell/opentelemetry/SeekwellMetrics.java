package io.seekwell.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.BatchCallback;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Seekwell's counters in OpenTelemetry's metrics: one asynchronous counter per {@link Metric},
 * named {@code seekwell.} and the counter's name in lower case ({@code seekwell.get_requests},
 * {@code seekwell.prefetched_bytes_unused}), with the unit {@code By} for bytes, {@code ns} for
 * nanoseconds, and an annotation ({@code {request}}, {@code {error}}, {@code {event}}) for counts.
 * Each counts for every factory of the JVM, closed ones included ({@link
 * S3SeekableInputStreamFactory#jvmMetrics()}), read once per collection for all of them. With
 * OpenTelemetry's no-op implementation (no SDK configured) nothing is ever read.
 *
 * <p>A Prometheus exporter names them as Prometheus does: {@code seekwell_get_requests_total},
 * {@code seekwell_bytes_received_bytes_total}. Thread-safe; the caller owns the returned callback,
 * whose {@code close()} stops the publishing.
 */
public final class SeekwellMetrics {

  /** The instrumentation scope (the meter's name) of Seekwell's counters. */
  public static final String SCOPE = "io.seekwell";

  private SeekwellMetrics() {}

  /**
   * Publishes the counters through {@link GlobalOpenTelemetry} (see {@link #publish}). Call it once
   * the application has set its global OpenTelemetry: before that, {@code
   * GlobalOpenTelemetry.get()} settles on the no-op one for good, and a later {@code
   * GlobalOpenTelemetry.set} fails.
   */
  public static BatchCallback publishGlobal() {
    return publish(GlobalOpenTelemetry.get());
  }

  /**
   * Publishes the JVM's Seekwell counters through {@code openTelemetry}'s meter {@link #SCOPE},
   * until the returned callback is closed. Call it once per OpenTelemetry instance: each call
   * registers them once more, and two would record every counter twice.
   */
  public static BatchCallback publish(OpenTelemetry openTelemetry) {
    Meter meter = openTelemetry.getMeter(SCOPE);
    Map<Metric, ObservableLongMeasurement> counters = new EnumMap<>(Metric.class);
    for (Metric metric : Metric.values()) {
      counters.put(
          metric,
          meter
              .counterBuilder(instrumentName(metric))
              .setUnit(unit(metric))
              .setDescription(description(metric))
              .buildObserver());
    }
    ObservableLongMeasurement[] all = counters.values().toArray(ObservableLongMeasurement[]::new);
    return meter.batchCallback(
        () -> {
          MetricsSnapshot snapshot = S3SeekableInputStreamFactory.jvmMetrics();
          counters.forEach((metric, counter) -> counter.record(snapshot.get(metric)));
        },
        all[0],
        Arrays.copyOfRange(all, 1, all.length));
  }

  /** The instrument's name: {@code seekwell.} and the counter's name in lower case. */
  public static String instrumentName(Metric metric) {
    return "seekwell." + metric.name().toLowerCase(Locale.ROOT);
  }

  /** The counter's unit, in UCUM as OpenTelemetry asks: bytes, nanoseconds, or what it counts. */
  static String unit(Metric metric) {
    String name = metric.name();
    if (name.contains("BYTES")) {
      return "By";
    }
    if (name.endsWith("NANOS")) {
      return "ns";
    }
    if (name.endsWith("REQUESTS") || name.endsWith("GETS") || name.endsWith("QUEUED")) {
      return "{request}";
    }
    return name.startsWith("ERRORS") || name.endsWith("ERRORS") ? "{error}" : "{event}";
  }

  private static String description(Metric metric) {
    return "Seekwell's "
        + metric.name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + ", every factory of the JVM added up (io.seekwell.common.metrics.Metric."
        + metric.name()
        + ")";
  }
}
