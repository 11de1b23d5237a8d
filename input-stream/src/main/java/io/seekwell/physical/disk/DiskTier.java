package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.physical.Block;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectBlocks;
import io.seekwell.physical.ObjectKey;
import io.seekwell.physical.Tier;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One factory's disk tier, for immutable objects: before a GET, a block takes the leading bytes the
 * {@link DiskCache} has of its range; after a GET, the block's whole 64 KiB granules are queued for
 * the cache's writer. Each object version (location, length, ETag when known, SSE-C key MD5) is a
 * {@link DiskObject}; the directory is bounded by size, evicting the objects used least recently.
 * The cache survives restarts: opening it lists the directory once, and an object's index is read
 * when the object is first used. A large scan is not written unless {@code
 * physicalio.disk.cache.scans}, for the reason the memory tier drops it.
 *
 * <p>Thread-safe; its only mutable state is whether this factory has left the cache (atomic, so the
 * factory leaves once however often it is closed): what changes is the shared cache's (see the
 * notes of {@link DiskObjects}, {@link DiskWriter}, {@link DiskReader}, {@link DataFileReader}).
 * Any disk error pauses the cache (reads and writes) for a minute ({@link DiskBreaker}); reads then
 * go to the store, and never fail because of the disk.
 */
public final class DiskTier implements Tier {

  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final DiskCache cache;
  private final DiskCaches scope;
  private final Metrics metrics;
  private final long scanLength;
  private final boolean scans;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * This factory's tier over {@code cache} (of {@code scope}), counting in {@code metrics}; blocks
   * of scans of objects longer than {@code scanLength} are written only if {@code scans}.
   */
  DiskTier(DiskCache cache, DiskCaches scope, Metrics metrics, long scanLength, boolean scans) {
    this.cache = cache;
    this.scope = scope;
    this.metrics = metrics;
    this.scanLength = scanLength;
    this.scans = scans;
  }

  /**
   * The tier {@code configuration} sets for a factory, over the cache of its directory in {@code
   * scope}; none if the disk cache is off or its directory cannot be used (see {@link
   * DiskCaches#acquire}, which also says what else it throws).
   */
  public static Optional<DiskTier> open(
      DiskCacheConfiguration configuration,
      DiskCaches scope,
      long maxQueuedBytes,
      long scanLength,
      Ticker ticker,
      UsableSpace space,
      Metrics metrics) {
    if (!configuration.isEnabled()) {
      return Optional.empty();
    }
    return scope
        .acquire(configuration, maxQueuedBytes, ticker::nanos, space, metrics)
        .map(cache -> new DiskTier(cache, scope, metrics, scanLength, configuration.scans()));
  }

  /** The slot of the directory this tier's cache holds. */
  public Path slot() {
    return cache.slot();
  }

  /**
   * Fills {@code block} of an immutable object from disk; hits and bytes are counted as the disk
   * serves them, a miss when it could not complete the block.
   */
  @Override
  public int fill(Block block, FetchContext context) {
    if (!context.immutable()) {
      return 0;
    }
    Optional<Metrics> stream = context.options().streamMetrics();
    ObjectKey key = block.key().owner().key();
    int filled = cache.reader().fill(key, block, metrics, stream);
    if (filled > 0) {
      LOG.debug(
          "Disk cache: {} {}: {} bytes from {}", key.location(), block.range(), filled, slot());
    }
    if (!block.isComplete()) {
      metrics.increment(Metric.DISK_MISSES);
      stream.ifPresent(s -> s.increment(Metric.DISK_MISSES));
    }
    return filled;
  }

  @Override
  public void take(Block block, FetchContext context) {
    if (context.immutable() && (scans || !block.isScanBeyond(scanLength))) {
      ObjectBlocks owner = block.key().owner();
      cache.writer().store(owner.key(), owner, block, metrics);
    }
  }

  /**
   * This factory leaves the cache (see {@link DiskCaches#release}), the first time only: a second
   * close must not take another user's place.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      scope.release(cache);
    }
  }
}
