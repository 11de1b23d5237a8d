package io.seekwell.physical.disk;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;

/**
 * Keeps a disk tier within its bound: removes the objects used least recently (the head of {@link
 * DiskObjects}' order, in constant time per object) until the bytes held fit. Runs on the tier's
 * writer thread, after each write; holds no state of its own.
 */
final class DiskEviction {

  private final DiskObjects objects;
  private final DiskReader reader;
  private final DiskBreaker breaker;
  private final long maxBytes;

  DiskEviction(DiskObjects objects, DiskReader reader, DiskBreaker breaker, long maxBytes) {
    this.objects = objects;
    this.reader = reader;
    this.breaker = breaker;
    this.maxBytes = maxBytes;
  }

  /** Removes the objects used least recently until the tier is within its bound. */
  void evictBeyondBound(Metrics metrics) {
    while (objects.storedBytes() > maxBytes) {
      DiskObject coldest = objects.evictColdest();
      if (coldest == null) {
        return;
      }
      metrics.increment(Metric.DISK_EVICTIONS);
      try {
        coldest.remove();
        reader.forget(coldest);
      } catch (IOException e) {
        breaker.trip("evicting " + coldest.indexFile(), e, metrics);
      }
    }
  }
}
