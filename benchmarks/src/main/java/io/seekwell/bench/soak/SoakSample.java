package io.seekwell.bench.soak;

import io.seekwell.bench.ProcessResources;
import java.util.function.ToDoubleFunction;

/**
 * One interval of the soak benchmark: when, what the process held, what the read paths held, the
 * reads so far, and the Seekwell paths' counters ({@link SoakRun#COUNTERS}, in that order).
 */
record SoakSample(
    double minutes,
    ProcessResources process,
    int connections,
    long diskBytes,
    long cachedBytes,
    long reads,
    long wrong,
    long failed,
    long gets,
    long[] counters) {

  private static final double MB = 1e6;

  /** The resources the benchmark requires to stay flat, by name, as numbers. */
  enum Resource {
    HEAP("heap MB", 0.10, 64, sample -> sample.process().heapBytes() / MB),
    DIRECT("direct MB", 0.25, 64, sample -> sample.process().directBytes() / MB),
    RESIDENT("RSS MB", 0.10, 64, sample -> sample.process().residentBytes() / MB),
    THREADS("threads", 0.15, 16, sample -> sample.process().threads()),
    FILES("open files", 0.10, 16, sample -> sample.process().openFiles()),
    CONNECTIONS("connections", 0, 16, SoakSample::connections),
    DISK("disk tier MB", 0.10, 16, sample -> sample.diskBytes() / MB),
    CACHED("cached MB", 0.10, 16, sample -> sample.cachedBytes() / MB);

    final String label;
    private final double share;
    private final double amount;
    private final ToDoubleFunction<SoakSample> level;

    /**
     * A resource named {@code label}, allowed to rise after the warm-up by {@code share} of its
     * level or by {@code amount}, the more: pools start and end threads as the load comes and goes,
     * and caches fill and empty up to their bounds. Its level in a sample is {@code level}'s.
     */
    Resource(String label, double share, double amount, ToDoubleFunction<SoakSample> level) {
      this.label = label;
      this.share = share;
      this.amount = amount;
      this.level = level;
    }

    double allowance(double level) {
      return Math.max(share * level, amount);
    }

    double of(SoakSample sample) {
      return level.applyAsDouble(sample);
    }
  }
}
