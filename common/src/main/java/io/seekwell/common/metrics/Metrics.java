package io.seekwell.common.metrics;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A set of counters, one per {@link Metric}, that any layer may increment from any thread. Reads
 * are through {@link #snapshot()}. A set may add everything it counts to a parent set too (a total
 * over several), each count to the child first and then to the parent, not as one step. Thread-safe
 * and lock-free.
 */
public final class Metrics {

  private final LongAdder[] counters = new LongAdder[Metric.values().length];
  private final Metrics parent;

  /** A set of counters, all zero. */
  public Metrics() {
    this(null);
  }

  /**
   * A set of counters, all zero, that adds what it counts to {@code parent} as well (if not null).
   */
  public Metrics(Metrics parent) {
    this.parent = parent;
    for (int i = 0; i < counters.length; i++) {
      counters[i] = new LongAdder();
    }
  }

  /** Adds one to {@code metric}. */
  public void increment(Metric metric) {
    add(metric, 1);
  }

  /** Adds {@code amount} to {@code metric}. */
  public void add(Metric metric, long amount) {
    counters[metric.ordinal()].add(amount);
    if (parent != null) {
      parent.add(metric, amount);
    }
  }

  /** The current value of {@code metric}. */
  public long get(Metric metric) {
    return counters[metric.ordinal()].sum();
  }

  /**
   * The values of all counters at about this moment. Each counter is read once; counters updated
   * concurrently may be read before or after the update.
   */
  public MetricsSnapshot snapshot() {
    Map<Metric, Long> values = new EnumMap<>(Metric.class);
    for (Metric metric : Metric.values()) {
      values.put(metric, get(metric));
    }
    return new MetricsSnapshot(values);
  }
}
