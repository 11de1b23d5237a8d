package io.seekwell.physical.disk;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pauses a disk tier after a disk error: for a minute its reads and writes are skipped (reads go to
 * the store, and never fail because of the disk), with one warning per error. Thread-safe: any
 * thread may trip it or ask. The pause's end is its one volatile field, which only a trip writes (a
 * check only reads it), so no check can end a pause a trip has just begun; two errors at once both
 * push it out to a minute after their own time.
 */
final class DiskBreaker {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);
  private static final long PAUSE_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Path directory;
  private final LongSupplier nanoTime;
  // When the pause ends; no later than now until the first trip, so the tier starts unpaused.
  private volatile long pausedUntil;

  /** A breaker for the tier in {@code directory}, timed by {@code nanoTime}. */
  DiskBreaker(Path directory, LongSupplier nanoTime) {
    this.directory = directory;
    this.nanoTime = nanoTime;
    this.pausedUntil = nanoTime.getAsLong();
  }

  /** Whether the tier is paused now. */
  boolean isPaused() {
    return nanoTime.getAsLong() - pausedUntil < 0;
  }

  /** Counts {@code error} (of doing {@code what}) in {@code metrics} and pauses the tier. */
  void trip(String what, IOException error, Metrics metrics) {
    metrics.increment(Metric.DISK_ERRORS);
    pausedUntil = nanoTime.getAsLong() + PAUSE_NANOS;
    LOG.warn(
        "Disk cache in {}: {} failed ({}); reads go to the store, and the disk cache pauses for"
            + " {} s",
        directory,
        what,
        error.toString(),
        TimeUnit.NANOSECONDS.toSeconds(PAUSE_NANOS));
  }
}
