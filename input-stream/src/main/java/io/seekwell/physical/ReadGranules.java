package io.seekwell.physical;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which 64 KiB granules of a prefetched block readers touched, to tell how much of what was fetched
 * ahead was never read. Lock-free: one bit per granule, set with an atomic or.
 */
final class ReadGranules {

  private static final int GRANULE = 64 * 1024;

  private final int size;
  private final AtomicLongArray bits;

  /** Tracks a block of {@code size} bytes. */
  ReadGranules(int size) {
    this.size = size;
    this.bits = new AtomicLongArray((int) ((size + (long) GRANULE * 64 - 1) / (GRANULE * 64L)));
  }

  /** Marks bytes {@code [from, upTo)} of the block read. */
  void mark(int from, int upTo) {
    for (int granule = from / GRANULE; granule <= (upTo - 1) / GRANULE; granule++) {
      long bit = 1L << (granule % 64);
      if ((bits.get(granule / 64) & bit) == 0) {
        bits.getAndAccumulate(granule / 64, bit, (a, b) -> a | b);
      }
    }
  }

  /** Bytes in granules no reader touched. */
  long unread() {
    long unread = 0;
    for (int granule = 0; granule * (long) GRANULE < size; granule++) {
      if ((bits.get(granule / 64) & (1L << (granule % 64))) == 0) {
        unread += Math.min(GRANULE, size - (long) granule * GRANULE);
      }
    }
    return unread;
  }
}
