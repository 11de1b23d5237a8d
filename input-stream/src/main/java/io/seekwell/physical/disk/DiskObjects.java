package io.seekwell.physical.disk;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object versions a disk tier holds, by file name, in the order they were used (the least
 * recently used first), and the bytes they hold together: what the tier's bound is checked against,
 * and what {@link #evictColdest} takes from, in constant time.
 *
 * <p><b>Design notes.</b> {@code byName} is concurrent, so a read that finds nothing of an object
 * takes no lock. {@code recency} (a {@link LinkedHashMap} in access order) is guarded by its own
 * monitor, held for a map operation only, never across I/O: a use moves the object to the end, an
 * eviction takes the head. An object enters both maps under that monitor and leaves both under it,
 * so they hold the same objects. {@code storedBytes} is atomic; objects tell it their changes from
 * any thread (fetch threads that forget bad granules, the writer thread that writes).
 */
final class DiskObjects {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final DiskDirectory directory;
  private final ConcurrentHashMap<String, DiskObject> byName = new ConcurrentHashMap<>();
  private final LinkedHashMap<String, DiskObject> recency = new LinkedHashMap<>(16, 0.75f, true);
  private final AtomicLong storedBytes = new AtomicLong();

  /** The objects of {@code directory}, starting with those it listed, least recently used first. */
  DiskObjects(DiskDirectory directory, Iterable<DiskDirectory.Listed> listed) {
    this.directory = directory;
    for (DiskDirectory.Listed entry : listed) {
      long bytes = entry.estimatedBytes();
      add(entry.name(), directory.object(entry.name(), true, bytes, storedBytes::addAndGet));
      storedBytes.addAndGet(bytes);
    }
  }

  private void add(String name, DiskObject object) {
    synchronized (recency) {
      byName.put(name, object);
      recency.put(name, object);
    }
  }

  /** The object named {@code name}, not counted as used; null if the tier holds none. */
  DiskObject find(String name) {
    return byName.get(name);
  }

  /** The object named {@code name}, counted as used now; null if the tier holds none. */
  DiskObject use(String name) {
    DiskObject object = byName.get(name);
    if (object != null) {
      synchronized (recency) {
        recency.get(name);
      }
    }
    return object;
  }

  /** The object named {@code name}, made (empty) if the tier holds none; counted as used now. */
  DiskObject useOrCreate(String name) {
    synchronized (recency) {
      DiskObject object = recency.get(name);
      if (object == null) {
        object = directory.object(name, false, 0, storedBytes::addAndGet);
        byName.put(name, object);
        recency.put(name, object);
      }
      return object;
    }
  }

  /**
   * Loads {@code object} as the version {@code identity} of {@code length} bytes (see {@link
   * DiskObject#load}); an index found naming another object is counted in {@code metrics} as a
   * checksum failure and logged.
   *
   * @return false if the object was evicted meanwhile, or its files were another object's
   */
  static boolean load(DiskObject object, String identity, long length, Metrics metrics)
      throws IOException {
    return object.load(
        identity,
        length,
        () -> {
          metrics.increment(Metric.DISK_CHECKSUM_FAILURES);
          LOG.warn(
              "Disk cache: {} belongs to another object; dropped and fetched again",
              object.indexFile());
        });
  }

  /** Bytes the objects hold, as far as the tier knows. */
  long storedBytes() {
    return storedBytes.get();
  }

  /**
   * Takes the least recently used object out of the tier (the caller removes its files).
   *
   * @return it, or null if the tier holds none
   */
  DiskObject evictColdest() {
    synchronized (recency) {
      Iterator<Map.Entry<String, DiskObject>> coldest = recency.entrySet().iterator();
      if (!coldest.hasNext()) {
        return null;
      }
      Map.Entry<String, DiskObject> entry = coldest.next();
      coldest.remove();
      byName.remove(entry.getKey(), entry.getValue());
      return entry.getValue();
    }
  }

  /** Every object the tier holds now. */
  Iterable<DiskObject> all() {
    return byName.values();
  }
}
