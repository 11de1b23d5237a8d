package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk caches open in one scope, by directory, counted by their users: the factories of a scope
 * that name one directory share one {@link DiskCache}. {@link PhysicalIO}'s public constructors use
 * the one scope of the process, {@link #PROCESS} (why, below); a caller that wants another scope
 * (tests do) passes its own instance.
 *
 * <p><b>Design notes.</b> {@code open}, {@code users}, {@code closing} and {@code warned} are
 * guarded by this object's monitor, taken only when a factory opens or closes its tier; opening a
 * directory (lock, probe, listing) runs under it, on the thread that builds the factory. Waiting
 * for writes runs outside it: a leaving factory's wait for the writes queued so far, and the last
 * user's close of the cache (up to 10 s for the writer, then the unmapping of every file), which
 * takes the cache out of {@code open} first. A factory that opens that directory meanwhile waits
 * (the monitor released) until the close has let go of the lock, which one process holds once; the
 * factories of other directories do not wait.
 *
 * <p><b>Why one scope per process remains.</b> The factories of one process that name one directory
 * must share one lock and one cache: the directory's lock is held by the process, so a second cache
 * there could not take it, and its factory would read without the disk. The connectors (Hadoop,
 * Iceberg) each build their stream factories from configuration alone, and those know nothing of
 * each other, so no caller holds a scope it could hand to all of them; {@link #PROCESS} is that
 * scope. It holds no cache while no factory has a directory open.
 */
final class DiskCaches {

  /** The scope of the whole process, which the public constructors of {@link PhysicalIO} use. */
  static final DiskCaches PROCESS = new DiskCaches();

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final Map<Path, DiskCache> open = new HashMap<>();
  private final Map<DiskCache, Integer> users = new HashMap<>();
  // The directories whose cache lost its last user and is being closed, outside the monitor.
  private final Set<Path> closing = new HashSet<>();
  // The directories found unusable since a cache last opened there, warned of.
  private final Set<Path> warned = new HashSet<>();

  /**
   * The cache in {@code configuration}'s directory, opened by the first user, with {@code
   * maxQueuedBytes} of writes queued at most (as the first user set it). None if the directory
   * cannot be used (see {@link DiskUnavailableException}): that is counted in {@code metrics} as
   * {@link Metric#DISK_UNAVAILABLE} and logged, as a warning the first time for the directory.
   *
   * @throws IllegalArgumentException if another user has the directory with another {@code
   *     physicalio.disk.cache.max.size}: two sizes for one directory are the configuration's error,
   *     not the disk's, and no fallback would honour both
   */
  synchronized Optional<DiskCache> acquire(
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanos,
      UsableSpace space,
      Metrics metrics) {
    Path directory = configuration.directory().orElseThrow().toAbsolutePath().normalize();
    awaitClosed(directory);
    DiskCache cache = open.get(directory);
    if (cache == null) {
      try {
        cache = DiskCache.open(directory, configuration.maxSize(), maxQueuedBytes, nanos, space);
      } catch (DiskUnavailableException e) {
        readWithout(directory, e, metrics);
        return Optional.empty();
      }
      open.put(directory, cache);
      warned.remove(directory);
    } else if (cache.maxBytes() != configuration.maxSize()) {
      throw new IllegalArgumentException(
          "'"
              + DiskCacheConfiguration.PREFIX
              + "max.size' is "
              + configuration.maxSize()
              + " bytes, but another factory uses '"
              + directory
              + "' with "
              + cache.maxBytes()
              + ": factories sharing a disk cache directory must set the same size");
    }
    users.merge(cache, 1, Integer::sum);
    return Optional.of(cache);
  }

  /**
   * Counts a factory that reads without the cache, and says why: as a warning the first time for
   * {@code directory}, at debug level for the factories after it.
   */
  private void readWithout(Path directory, DiskUnavailableException reason, Metrics metrics) {
    metrics.increment(Metric.DISK_UNAVAILABLE);
    String format =
        "Disk cache in {} ("
            + DiskCacheConfiguration.PREFIX
            + "dir) is not used, as {}: this factory reads from the store without it";
    if (warned.add(directory)) {
      LOG.warn(format, directory, reason.getMessage());
    } else {
      LOG.debug(format, directory, reason.getMessage());
    }
  }

  /**
   * Waits, under the monitor and releasing it meanwhile, until no cache in {@code directory} is
   * closing.
   */
  private void awaitClosed(Path directory) {
    boolean interrupted = false;
    while (closing.contains(directory)) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One user less has {@code cache}: the last closes it; another waits (up to 10 s) for the writes
   * queued so far, so that none holds the leaving factory's blocks. Neither wait holds the monitor.
   */
  void release(DiskCache cache) {
    boolean last;
    synchronized (this) {
      last = users.merge(cache, -1, Integer::sum) == 0;
      if (last) {
        users.remove(cache);
        open.remove(cache.path(), cache);
        closing.add(cache.path());
      }
    }
    if (!last) {
      cache.writer().awaitQueued();
      return;
    }
    try {
      cache.close();
    } finally {
      synchronized (this) {
        closing.remove(cache.path());
        notifyAll();
      }
    }
  }
}
