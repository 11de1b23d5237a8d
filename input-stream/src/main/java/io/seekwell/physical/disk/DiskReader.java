package io.seekwell.physical.disk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.physical.Block;
import io.seekwell.physical.ObjectKey;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills blocks from a disk tier's objects, on the fetch thread of the block: from the block's first
 * missing byte on, granule by granule, stopping at the first granule the disk does not hold or that
 * fails its checksum. Keeps the mappings of the {@value #MAPPED_OBJECTS} objects read last; a disk
 * error trips the tier's {@link DiskBreaker}.
 *
 * <p><b>Design notes.</b> {@code mapped} is a bounded Caffeine cache (thread-safe) of the objects
 * whose files stay mapped; the object that falls out is unmapped on the thread that made it fall
 * out, at once ({@code cleanUp}) rather than at the cache's next maintenance.
 */
final class DiskReader {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  /**
   * The most objects whose files stay mapped: a process may hold only so many mappings ({@code
   * vm.max_map_count}, 65,530 by default on Linux), and each costs one per gigabyte of its object.
   */
  static final int MAPPED_OBJECTS = 1024;

  private final DiskObjects objects;
  private final DiskBreaker breaker;
  private final Cache<DiskObject, Boolean> mapped =
      Caffeine.newBuilder()
          .maximumSize(MAPPED_OBJECTS)
          .executor(Runnable::run)
          .removalListener(
              (DiskObject object, Boolean unused, RemovalCause cause) -> {
                if (object != null) {
                  object.unmap();
                }
              })
          .build();

  DiskReader(DiskObjects objects, DiskBreaker breaker) {
    this.objects = objects;
    this.breaker = breaker;
  }

  /**
   * Fills {@code block} (of {@code key}'s object) with the bytes the disk holds from its first
   * missing byte on, counting them in {@code metrics} and {@code stream}.
   *
   * @return how many bytes it filled
   */
  int fill(ObjectKey key, Block block, Metrics metrics, Optional<Metrics> stream) {
    if (breaker.isPaused()) {
      return 0;
    }
    String identity = DiskDirectory.identity(key);
    DiskObject object = objects.use(DiskDirectory.nameOf(identity));
    try {
      if (object == null || !DiskObjects.load(object, identity, key.length(), metrics)) {
        return 0;
      }
      try {
        return block.fillInPlace(
            new GranuleFiller(
                object,
                block.range(),
                GranuleFiller.Counts.OWN,
                metrics,
                stream,
                () -> metrics.increment(Metric.DISK_CHECKSUM_FAILURES)));
      } finally {
        if (Mappings.available()) {
          mapped.get(object, read -> Boolean.TRUE); // after the read: the last to map, it counts
          if (mapped.estimatedSize() > MAPPED_OBJECTS) {
            mapped.cleanUp(); // evicts now, not at the cache's next maintenance
          }
        }
      }
    } catch (ClosedChannelException e) {
      LOG.debug("Disk cache: {} was evicted while read; the GET serves it", key.location());
      return 0;
    } catch (IOException e) {
      breaker.trip("reading " + key.location() + " " + block.range(), e, metrics);
      return 0;
    } catch (InternalError e) {
      // The JVM's report of a fault under a mapping: the file was cut short, or the device failed.
      breaker.trip(
          "reading " + key.location() + " " + block.range(),
          new IOException("a mapped data file could not be read", e),
          metrics);
      return 0;
    }
  }

  /** Forgets {@code object}'s mappings, as it leaves the tier. */
  void forget(DiskObject object) {
    mapped.invalidate(object);
  }
}
