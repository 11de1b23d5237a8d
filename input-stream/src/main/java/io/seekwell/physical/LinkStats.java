package io.seekwell.physical;

/**
 * What GETs have shown about the link to the store: time to first byte and per-request throughput,
 * as moving averages. From them comes the break-even gap for merging ranges: reading a gap of
 * {@code ttfb × throughput} bytes costs as much time as a new request. Thread-safe.
 */
final class LinkStats {

  static final long MIN_GAP = 64 * 1024;
  static final long MAX_GAP = 8 * 1024 * 1024;
  static final long DEFAULT_GAP = 1024 * 1024;

  private static final double WEIGHT = 0.2;
  private static final long MIN_TRANSFER_BYTES = 64 * 1024;

  private double firstByteSeconds = -1;
  private double bytesPerSecond = -1;

  /** Records one GET: its time to first byte and how long its body took. */
  synchronized void record(long firstByteNanos, long bytes, long transferNanos) {
    firstByteSeconds = average(firstByteSeconds, firstByteNanos / 1e9);
    if (bytes >= MIN_TRANSFER_BYTES && transferNanos > 0) {
      bytesPerSecond = average(bytesPerSecond, bytes / (transferNanos / 1e9));
    }
  }

  /** The break-even merge gap, within 64 KiB and 8 MiB; 1 MiB until there is data. */
  synchronized long mergeGap() {
    if (firstByteSeconds < 0 || bytesPerSecond < 0) {
      return DEFAULT_GAP;
    }
    long gap = (long) (firstByteSeconds * bytesPerSecond);
    return Math.max(MIN_GAP, Math.min(MAX_GAP, gap));
  }

  private static double average(double current, double sample) {
    return current < 0 ? sample : current + WEIGHT * (sample - current);
  }
}
