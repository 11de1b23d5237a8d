package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The physical IO layer of one factory: the metadata store and the block cache over one object
 * client. Opens {@link ObjectReader}s. Thread-safe. {@link #close()} stops its threads and drops
 * every cached byte; it does not close the object client.
 */
public final class PhysicalIO implements AutoCloseable {

  private final PhysicalIOConfiguration configuration;
  private final MetadataStore metadata;
  private final BlockStore blocks;

  /**
   * Physical IO over {@code client}, with no disk tier, counting in {@code metrics}, timing with
   * {@code ticker}.
   */
  public PhysicalIO(
      ObjectClient client, PhysicalIOConfiguration configuration, Metrics metrics, Ticker ticker) {
    this(client, configuration, DiskCacheConfiguration.OFF, new DiskCaches(), metrics, ticker);
  }

  /**
   * Physical IO over {@code client} with the disk tier {@code diskCache} configures, sharing its
   * directory's cache with the other users of {@code scope} (a slot of the directory per scope),
   * counting in {@code metrics}, timing with {@code ticker}. If the tier's directory cannot be used
   * (all its slots are taken, it cannot be created, locked, written or listed, or its disk has less
   * than 1 MiB usable), it reads without the tier: it logs why (a warning the first time for the
   * directory in the scope, at debug level after that) and counts {@link
   * io.seekwell.common.metrics.Metric#DISK_UNAVAILABLE}. {@link #close()} leaves the cache; the
   * scope stays the caller's.
   *
   * @throws IllegalArgumentException if another user of {@code scope} uses the disk tier's
   *     directory with another {@code physicalio.disk.cache.max.size} or {@code max.slots}
   */
  public PhysicalIO(
      ObjectClient client,
      PhysicalIOConfiguration configuration,
      DiskCacheConfiguration diskCache,
      DiskCaches scope,
      Metrics metrics,
      Ticker ticker) {
    this(
        client,
        configuration,
        diskCache,
        scope,
        UsableSpace.FILE_STORE,
        PagePool.jvm(),
        metrics,
        ticker);
  }

  /**
   * As the public constructor with a disk tier, told the usable bytes of its directory by {@code
   * space} (tests make a disk full so), taking block memory from {@code pool} (tests give a JVM
   * budget of their own).
   */
  PhysicalIO(
      ObjectClient client,
      PhysicalIOConfiguration configuration,
      DiskCacheConfiguration diskCache,
      DiskCaches scope,
      UsableSpace space,
      PagePool pool,
      Metrics metrics,
      Ticker ticker) {
    this.configuration = configuration;
    this.metadata = new MetadataStore(client, configuration, ticker);
    this.blocks =
        new BlockStore(
            client, configuration, diskCache, scope, space, pool, metrics, metadata, ticker);
  }

  /**
   * The metadata of {@code location}, from the cache or from one HEAD shared by every concurrent
   * caller; {@code onHead} is told when a HEAD is sent.
   */
  public CompletableFuture<ObjectMetadata> metadata(
      ObjectLocation location, RequestOptions options, Runnable onHead) {
    return metadata.get(location, options, onHead);
  }

  /**
   * The metadata of {@code location} from a HEAD sent now rather than from the cache; the answer
   * replaces what was cached. {@code onHead} is told when the HEAD is sent.
   */
  public CompletableFuture<ObjectMetadata> freshMetadata(
      ObjectLocation location, RequestOptions options, Runnable onHead) {
    return metadata.refresh(location, options, onHead);
  }

  /** A reader of the object version {@code metadata} describes. The caller closes it. */
  public ObjectReader open(ObjectLocation location, ObjectMetadata metadata, FetchContext context) {
    ScopedLocation scope = ScopedLocation.of(location, context.options());
    return reader(blocks.retain(new ObjectKey(scope, metadata.etag(), metadata.length())), context);
  }

  /**
   * A reader of {@code location} whose length the caller knows but not its ETag, with no HEAD: the
   * cached metadata's version if it has this length, else the version the first GET response names,
   * which every later GET of the object then requires. Bytes cached under a version learnt that way
   * are shared with later opens by the same length only while the version is current: while the
   * metadata it taught is cached, or, if its response did not confirm the length, for the metadata
   * time to live and while no metadata names another version. So an object overwritten since is
   * never served from the old version's bytes past that time. The caller closes it.
   */
  public ObjectReader open(ObjectLocation location, long length, FetchContext context) {
    ScopedLocation scope = ScopedLocation.of(location, context.options());
    Optional<ObjectMetadata> known =
        metadata.cached(scope).filter(cached -> cached.length() == length);
    return known.isPresent()
        ? open(location, known.get(), context)
        : reader(blocks.retain(ObjectKey.byLength(scope, length)), context);
  }

  private ObjectReader reader(ObjectBlocks state, FetchContext context) {
    return new ObjectReader(blocks, state, context, configuration.readTimeout().toNanos());
  }

  /**
   * Forgets the metadata and cached bytes of {@code location}, so that the next open sees the
   * object as the store has it now. Streams already open keep the version they read.
   */
  public void invalidate(ObjectLocation location) {
    blocks.invalidate(location);
  }

  /** The gap up to which vectored ranges are merged into one GET. */
  public long mergeGap() {
    long configured = configuration.coalesceTolerance();
    return configured == PhysicalIOConfiguration.AUTO_COALESCE
        ? blocks.measuredMergeGap()
        : configured;
  }

  /** Bytes of block memory reserved now, held or in flight. */
  public long memoryUsed() {
    return blocks.memoryUsed();
  }

  /** The most bytes of block memory ever reserved at once. */
  public long memoryHighWaterMark() {
    return blocks.memoryHighWaterMark();
  }

  /**
   * Bytes of block memory every factory of this JVM may hold together, and what they were sized
   * from: the bound of the one pool they draw from, sized once, by the first factory ({@link
   * PhysicalIOConfiguration#jvmBudget()}).
   *
   * @throws IllegalArgumentException naming {@code seekwell.memory.limit} if it is set to no size
   */
  public static PhysicalIOConfiguration.JvmBudget jvmBudget() {
    return PagePool.jvmSizing();
  }

  /** How many objects have state (open streams or cached bytes). */
  public int trackedObjects() {
    return blocks.trackedObjects();
  }

  @Override
  public void close() {
    blocks.close();
    metadata.clear();
  }
}
