package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scope of disk caches: the caches it has open, by configured directory, counted by their
 * users. The factories given one scope that name one directory share one {@link DiskCache}, in one
 * slot of the directory; the last of them to close closes it and frees the slot. Another scope (of
 * this process or another) naming the directory takes another slot. The public type is {@link
 * io.seekwell.DiskCacheScope}; a {@link io.seekwell.physical.PhysicalIO} given no scope makes one
 * of its own. A scope holds no cache while no factory of it has a directory open, so it needs no
 * closing.
 *
 * <p><b>Design notes.</b> {@code open}, {@code users}, {@code closing}, {@code warned} and {@code
 * leftOpen} are guarded by this object's monitor, taken only when a factory opens or closes its
 * tier; opening a cache (claiming a slot, probing it, listing it) runs under it, on the thread that
 * builds the factory. Waiting for writes runs outside it: a leaving factory's wait for the writes
 * queued so far, and the last user's close of the cache (up to 10 s for the writer, then the
 * unmapping of every file), which takes the cache out of {@code open} first. A factory of this
 * scope that opens that directory meanwhile waits (the monitor released) until the close has freed
 * the slot, so that it takes the lowest free slot only once this scope's old one is free (so it is
 * that slot, warm, unless a lower one is free too or another opener took it first); the factories
 * of other directories do not wait.
 *
 * <p>Warnings are per scope: the first factory of a scope that cannot use a directory warns, the
 * later ones of that scope log at debug level until a cache opens there again. Factories given no
 * scope each have one of their own, so each of them warns.
 */
public final class DiskCaches {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final Map<Path, DiskCache> open = new HashMap<>();
  private final Map<DiskCache, Integer> users = new HashMap<>();
  // The directories whose cache lost its last user and is being closed, outside the monitor.
  private final Set<Path> closing = new HashSet<>();
  // The directories found unusable since a cache last opened there, warned of.
  private final Set<Path> warned = new HashSet<>();
  // Lock files a claim could not close without releasing another scope's lock (see
  // DiskDirectoryLock#claim; not expected), kept open and referenced while this scope lasts.
  private final List<FileChannel> leftOpen = new ArrayList<>();

  /** A scope with no cache open. */
  public DiskCaches() {
    // The maps start empty; caches open as factories acquire them.
  }

  /**
   * The cache in {@code configuration}'s directory, opened by the first user in the lowest free
   * slot of the directory (see {@link DiskCache#open}), with {@code maxQueuedBytes} of writes
   * queued at most (as the first user set it). None if the directory cannot be used (see {@link
   * DiskUnavailableException}), all its slots taken included: that is counted in {@code metrics} as
   * {@link Metric#DISK_UNAVAILABLE} and logged, as a warning the first time for the directory in
   * this scope. An unexpected failure to open it is taken as the directory's too: the factory reads
   * without the cache rather than failing.
   *
   * @throws IllegalArgumentException if another user of this scope has the directory with another
   *     {@code physicalio.disk.cache.max.size} or {@code max.slots}: two bounds for one cache are
   *     the configuration's error, not the disk's, and no fallback would honour both (another
   *     scope, in another slot, may set its own)
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
        cache =
            DiskCache.open(directory, configuration, maxQueuedBytes, nanos, space, leftOpen::add);
      } catch (DiskUnavailableException e) {
        readWithout(directory, e, metrics);
        return Optional.empty();
      } catch (RuntimeException e) {
        LOG.debug("Disk cache in {}: opening it failed", directory, e);
        readWithout(
            directory,
            new DiskUnavailableException("opening it failed unexpectedly (" + e + ")", e),
            metrics);
        return Optional.empty();
      }
      open.put(directory, cache);
      warned.remove(directory);
    } else if (!cache.boundedAs(configuration)) {
      DiskCacheConfiguration first = cache.configuration();
      throw new IllegalArgumentException(
          "'"
              + DiskCacheConfiguration.PREFIX
              + "max.size' and '"
              + DiskCacheConfiguration.PREFIX
              + "max.slots' are "
              + configuration.maxSize()
              + " bytes and "
              + configuration.maxSlots()
              + ", but another factory uses '"
              + directory
              + "' with "
              + first.maxSize()
              + " bytes and "
              + first.maxSlots()
              + " in the same scope: factories sharing a disk cache must bound it alike");
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
        open.remove(cache.home(), cache);
        closing.add(cache.home());
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
        closing.remove(cache.home());
        notifyAll();
      }
    }
  }
}
