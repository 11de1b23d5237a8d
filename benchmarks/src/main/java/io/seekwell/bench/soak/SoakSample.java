package io.seekwell.bench.soak;

import io.seekwell.bench.ProcessResources;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One interval of the soak benchmark: when, whether it was taken idle (no task running, after the
 * pools' keep-alive), what the process held, what the read paths held, the reads so far, the GETs
 * so far with the body bytes their responses carried and the bytes that arrived (every path's), and
 * the Seekwell paths' counters ({@link SoakRun#COUNTERS}, in that order).
 */
record SoakSample(
    double minutes,
    boolean idle,
    ProcessResources process,
    int connections,
    long diskBytes,
    long cachedBytes,
    long reads,
    long wrong,
    long failed,
    long gets,
    long responseBytes,
    long receivedBytes,
    long[] counters) {

  static final double MB = 1e6;

  /** The sample in one line, as the soak prints it while it runs. */
  String progressLine() {
    return String.format(
        Locale.ROOT,
        "... %.1f min: %d reads, %d wrong, %d failed; heap %.0f MB, RSS %.0f MB, %d threads,"
            + " %d files, %d connections, disk %.0f MB",
        minutes,
        reads,
        wrong,
        failed,
        Resource.HEAP.of(this),
        Resource.RESIDENT.of(this),
        process.threads(),
        process.openFiles(),
        connections,
        Resource.DISK.of(this));
  }

  /** How a resource is judged. */
  enum Judgement {
    /** The least-squares line through the intervals read after the warm-up may not rise. */
    TREND,
    /**
     * Idle at the end above idle at the warm-up's end by no more than its allowance: the elastic
     * pools follow the load while reading, so only their idle level shows what was left behind.
     */
    IDLE,
    /** Never above its configured bound: a cache fills and empties over its whole bound. */
    BOUND
  }

  /** The resources the benchmark requires to stay flat, by name, as numbers. */
  enum Resource {
    HEAP("heap MB", Judgement.TREND, 0.10, 64, sample -> sample.process().heapBytes() / MB),
    DIRECT("direct MB", Judgement.TREND, 0.25, 64, sample -> sample.process().directBytes() / MB),
    RESIDENT("RSS MB", Judgement.TREND, 0.10, 64, sample -> sample.process().residentBytes() / MB),
    THREADS("threads", Judgement.IDLE, 0.15, 16, sample -> sample.process().threads()),
    FILES("open files", Judgement.TREND, 0.10, 16, sample -> sample.process().openFiles()),
    CONNECTIONS("connections", Judgement.TREND, 0, 16, SoakSample::connections),
    DISK("disk tier MB", Judgement.BOUND, 0, 0, sample -> sample.diskBytes() / MB),
    CACHED("cached MB", Judgement.BOUND, 0, 0, sample -> sample.cachedBytes() / MB);

    final String label;
    final Judgement judgement;
    private final double share;
    private final double amount;
    private final ToDoubleFunction<SoakSample> level;

    /**
     * A resource named {@code label}, judged by {@code judgement}, allowed to rise by {@code share}
     * of its level or by {@code amount}, the more (a {@link Judgement#BOUND} resource by nothing
     * over its bound). Its level in a sample is {@code level}'s.
     */
    Resource(
        String label,
        Judgement judgement,
        double share,
        double amount,
        ToDoubleFunction<SoakSample> level) {
      this.label = label;
      this.judgement = judgement;
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
