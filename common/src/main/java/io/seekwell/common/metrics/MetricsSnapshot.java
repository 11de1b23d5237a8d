package io.seekwell.common.metrics;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** The values of every {@link Metric} at one moment. Immutable and thread-safe. */
public final class MetricsSnapshot {

  private final Map<Metric, Long> values;

  MetricsSnapshot(Map<Metric, Long> values) {
    this.values = Collections.unmodifiableMap(new EnumMap<>(values));
  }

  /** The value of {@code metric} when the snapshot was taken. */
  public long get(Metric metric) {
    return values.getOrDefault(metric, 0L);
  }

  /** Every value, keyed by metric. */
  public Map<Metric, Long> asMap() {
    return values;
  }

  /** How much each counter grew from {@code earlier} to this snapshot. */
  public MetricsSnapshot minus(MetricsSnapshot earlier) {
    return combine(earlier, -1);
  }

  /** The sum of this snapshot and {@code other}, metric by metric (of several factories). */
  public MetricsSnapshot plus(MetricsSnapshot other) {
    return combine(other, 1);
  }

  /** No counts at all. */
  public static MetricsSnapshot zero() {
    return new MetricsSnapshot(new EnumMap<>(Metric.class));
  }

  private MetricsSnapshot combine(MetricsSnapshot other, int sign) {
    Map<Metric, Long> combined = new EnumMap<>(Metric.class);
    for (Metric metric : Metric.values()) {
      combined.put(metric, get(metric) + sign * other.get(metric));
    }
    return new MetricsSnapshot(combined);
  }

  @Override
  public String toString() {
    return "MetricsSnapshot" + values;
  }
}
