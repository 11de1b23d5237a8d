package io.seekwell.physical.disk;

import io.seekwell.Conditions;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.time.Duration;

/**
 * Waits for the disk writer of the tests' factories. A block's granules are queued for the disk
 * only after the block completed and its readers woke, so a read that returned may not have queued
 * them yet, and closing its factory then would not wait for them: a test that needs them on disk
 * waits for them to be counted first.
 */
final class DiskWrites {

  private DiskWrites() {}

  /** Returns once {@code metrics} counts {@code bytes} written to disk; fails after a minute. */
  static void await(Metrics metrics, long bytes) {
    Conditions.await(
        () -> metrics.get(Metric.DISK_BYTES_WRITTEN) >= bytes,
        Duration.ofMinutes(1),
        bytes + " bytes written to disk, " + metrics.get(Metric.DISK_BYTES_WRITTEN) + " so far");
  }
}
