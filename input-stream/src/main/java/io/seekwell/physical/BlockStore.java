package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.DiskTier;
import io.seekwell.physical.disk.SharedSlotsTier;
import io.seekwell.physical.disk.UsableSpace;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block cache of one factory, shared by all its streams: the registry of the object versions it
 * holds blocks of, and the planning of the GETs for missed bytes. Its parts: the {@link MemoryTier}
 * (admission against the hard {@link MemoryBudget}, eviction), the tiers below it (the {@link
 * DiskTier}, if any) behind the {@link Tier} interface, {@link Tiers} (how a new block is filled
 * through them) and the {@link Fetcher} (fetch threads, the one GET routine). Thread-safe.
 *
 * <p><b>Design notes: the rules of the block cache.</b>
 *
 * <p>These notes are the one place where the concurrency rules of {@code BlockStore}, {@link
 * Block}, {@link ObjectBlocks}, {@link MemoryBudget} and {@link ObjectReader} are written down.
 *
 * <p><b>What is where.</b> A {@link Block} holds the bytes of one GET of one object version. It
 * sits in two places: the memory tier's Caffeine cache (keyed by {@link BlockKey}: its owner and
 * start), which ranks blocks for eviction, and its owner {@link ObjectBlocks} (by start), which
 * readers search. The index {@code objects} maps an {@link ObjectKey} (location, SSE-C key,
 * version) to the {@link ObjectBlocks} that new streams share.
 *
 * <p><b>Reservation.</b> A block's pages are taken from the {@link MemoryBudget} before its GET is
 * sent ({@link #fetch}, under the object's plan lock, by {@link MemoryTier#admit}) and given back
 * exactly once: when the block is out of the cache ({@link Block#evict}) and nobody pins it; the
 * last of the two gives them back, with a compare-and-set of its pin count from 0 to released. The
 * block drops its reference then, so a stale reference to the block (an idle reader's hint, a
 * detached object) keeps no page reachable. Two bounds hold: the factory's own limit, counted by
 * its {@link MemoryBudget}, and the JVM's, counted by the one {@link SharedBudget} every factory's
 * {@link PagePool} pages come from. The JVM's counts what is reachable, not only what was reserved:
 * the pages of blocks, and the pages kept for the next blocks, which it frees before a block would
 * be refused. Both are lock-free (atomic counts, a concurrent queue of kept pages): any thread that
 * admits or releases a block uses them. A factory short of the JVM's memory evicts its own blocks
 * first, then asks the other factories' memory tiers ({@link SharedBudget#reclaimFor}), each under
 * its own eviction lock, one at a time.
 *
 * <p><b>Pinning.</b> A block is created pinned once for its fetcher, which unpins it when the body
 * is in or has failed. A reader pins it ({@link Block#tryPin}) before copying and unpins after; a
 * block already released cannot be pinned, and the reader plans again. A vectored copy pins every
 * block it needs until its bytes arrive or the read timeout passes, then unpins on every path.
 *
 * <p><b>Weight.</b> A block weighs 0 while it fills, so Caffeine never ranks it for eviction (its
 * memory is already counted in the budget), and is re-weighed to its size once complete ({@code
 * replace(key, block, block)}). Caffeine's maximum weight is the budget's limit, which the budget
 * keeps it from reaching, so every eviction is decided by the memory tier.
 *
 * <p><b>Eviction tiers.</b> When a reservation does not fit, the memory tier takes complete blocks,
 * coldest first: first those readers are done with (read to their end, or of objects no stream has
 * open), then blocks that were read ({@link Victims}). A prefetch may only take the first kind; a
 * read may take both. Prefetched blocks nobody has read, of an object still open, are never taken:
 * a read that finds no room goes straight into its caller's buffer ({@link DirectRead}) instead of
 * having bytes fetched ahead fetched a second time. Prefetches leave the readers' reserve (the
 * smaller of {@link #largestPrefetch()} and an eighth of the limit, at least the read-ahead size)
 * free under both the factory's limit and the JVM's, so a small read finds a block: read straight
 * into the caller's buffer, a parser's one-byte reads would each be a GET.
 *
 * <p><b>Scans.</b> A block fetched ahead for a stream that reads it once ({@link
 * FetchPurpose#SCAN}: read-ahead, column chunks, vectored ranges), of an object longer than a
 * quarter of the memory limit, is dropped as soon as the stream has read every byte of it, if no
 * other stream has the object open ({@link MemoryTier#readThrough}). A scan then holds only its
 * read-ahead, and does not push the rest of the cache out for bytes read once; a second scan of the
 * object fetches them again. Blocks a read asked for, blocks fetched ahead of reads that may come
 * again (footers, small objects), and blocks with bytes nobody read stay cached. Bytes a stream
 * will read in order that found no memory (predicted chunks) wait in its reader's {@link
 * WaitingPrefetches}, which asks for them again as the stream's reads move into other blocks: the
 * memory a scan frees as it reads through its blocks goes to the next bytes it will read.
 *
 * <p><b>The tiers below.</b> A block's fetch thread first asks the tiers below memory for its
 * bytes, and sends a GET only for the rest ({@link Tiers}). For an immutable object, the {@link
 * DiskTier} fills what it holds; once the block is complete, its granules are queued for the disk
 * writer, which pins it (so its memory stays counted) until written. A large scan is not written
 * (unless {@code physicalio.disk.cache.scans}), for the reason the memory tier drops it. The disk
 * tier's own rules are in the notes of its classes.
 *
 * <p><b>The index.</b> An {@code objects} entry, and the stream count of its {@link ObjectBlocks},
 * change only inside {@code ConcurrentHashMap.compute} for its key, so opening, closing and the
 * removal of an object's last block are atomic per object. An {@link ObjectBlocks} replaced in the
 * index (a by-length version no longer current, see {@link ObjectIndex#retain}) or taken out of it
 * (a version found changed, or invalidated) stays reachable from its streams and blocks only;
 * identity checks keep it from removing its successor. By-length blocks in the index are pinned to
 * the first response's version only inside that {@code compute}, together with the metadata the
 * response teaches, so that an open by length never finds one without the other. The metadata store
 * is called inside {@code compute} and never calls back.
 *
 * <p><b>Who calls what, from which thread.</b> Stream threads (one or several per stream: a
 * stream's positional reads may run concurrently) read through {@link ObjectReader}: {@link #fetch}
 * (which takes the object's plan lock while planning, never during I/O), {@link #touch}, and {@link
 * #getAsync} for direct reads ({@link DirectRead}: GETs on fetch threads straight into the caller's
 * buffer, the stream thread waiting for all of them). Fetch threads fill blocks through the tiers
 * and {@link Fetcher#get}; waiters of a block are completed on the fetch thread that received their
 * bytes. Any thread may call {@link #release}, {@link #invalidate(ObjectLocation)}, {@link
 * ObjectIndex#changed} and {@link #close}. The memory tier's eviction lock is taken only when a
 * reservation does not fit, and never while waiting for I/O; there is no lock on the path of a read
 * of cached bytes.
 *
 * <p><b>Versions.</b> Every GET of a version carries its ETag as {@code If-Match} once known; a
 * response naming another version, or a 412, drops the version's blocks and metadata ({@link
 * #changed}); {@link #invalidate(ObjectLocation)} forgets every version of an object its caller
 * wrote or deleted. Bytes are shared only between streams whose requests carry the same SSE-C key.
 *
 * <p><b>Closing.</b> {@link #close} cancels every GET waiting for headers, closes every body being
 * received (which ends blocked reads), stops the fetch threads and drops every block, so no thread,
 * connection or reservation is left.
 */
final class BlockStore implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BlockStore.class);

  private final MemoryTier memory;
  private final Admission admission;
  private final Fetcher fetcher;
  private final List<Tier> lower;
  private final ObjectIndex index;
  private final Metrics metrics;
  private final LinkStats link;
  private final long largestPrefetch;
  private final long straightReadBytes;
  private final long scanLength;

  /**
   * A store that fetches with {@code client}; it tells {@code metadata} the versions GET responses
   * name and forgets an object's metadata when a GET finds that its ETag no longer matches. GETs
   * are timed with {@code ticker}, for the link's statistics. Blocks of immutable objects go
   * through the disk tier {@code diskCache} configures, if any and if its directory can be used
   * ({@code space} tells the usable bytes there; {@code scope} shares the directory with the other
   * factories of the scope); if not, the store reads without it.
   */
  BlockStore(
      ObjectClient client,
      PhysicalIOConfiguration configuration,
      DiskCacheConfiguration diskCache,
      DiskCaches scope,
      UsableSpace space,
      PagePool pool,
      Metrics metrics,
      MetadataStore metadata,
      Ticker ticker) {
    this.metrics = metrics;
    this.scanLength = configuration.scanLength();
    this.largestPrefetch = Math.max(1L << 20, configuration.maxMemoryLimit() / 16);
    this.straightReadBytes =
        Math.max(1L << 20, Math.max(configuration.missMaxBytes(), configuration.readAheadBytes()));
    // First, as it may throw (two bounds for one cache): nothing else is held yet.
    Optional<DiskTier> disk =
        DiskTier.open(
            diskCache,
            scope,
            configuration.maxMemoryLimit() / 8,
            scanLength,
            ticker,
            space,
            metrics);
    List<Tier> lowerTiers = new ArrayList<>();
    disk.ifPresent(lowerTiers::add);
    SharedSlotsTier.open(diskCache, disk.map(DiskTier::slot), metrics).ifPresent(lowerTiers::add);
    this.lower = List.copyOf(lowerTiers);
    this.link =
        new LinkStats(configuration.targetRequestSize(), configuration.largestRequestSize());
    this.index =
        new ObjectIndex(metadata, configuration.metadataCacheTtl(), ticker, this::dropFromMemory);
    this.memory =
        new MemoryTier(
            configuration.maxMemoryLimit(),
            readersReserve(configuration, largestPrefetch),
            pool,
            scanLength,
            metrics,
            index::leave);
    this.fetcher =
        new Fetcher(
            client,
            index,
            configuration.fetchThreads(),
            configuration.readTimeout().toNanos(),
            link,
            metrics,
            ticker);
    this.admission =
        new Admission(
            new RequestPlanner(configuration, link::requestSize, link::cheapExtraBytes),
            memory,
            new Tiers(memory, lower, fetcher),
            metrics);
  }

  /** See {@link ObjectIndex#retain}. */
  ObjectBlocks retain(ObjectKey key) {
    return index.retain(key);
  }

  /** See {@link ObjectIndex#release}. */
  void release(ObjectBlocks blocks) {
    index.release(blocks);
  }

  /** See {@link ObjectIndex#discard}. */
  void discard(ObjectBlocks blocks) {
    index.discard(blocks);
  }

  /** See {@link ObjectIndex#invalidate}. */
  void invalidate(ObjectLocation location) {
    index.invalidate(location);
  }

  private void dropFromMemory(Block block) {
    memory.drop(block);
  }

  /**
   * Makes sure GETs are in flight for the bytes around a read of {@code [position, end]} ({@link
   * Admission#fetch}).
   *
   * @return false if no memory could be found for the block holding {@code position}: the caller
   *     then reads those bytes straight into its own buffer
   */
  boolean fetch(
      ObjectBlocks blocks, long position, long end, FetchContext context, FetchPurpose purpose)
      throws IOException {
    fetcher.ensureOpen();
    return admission.fetch(blocks, position, end, context, purpose);
  }

  /**
   * Starts GETs for the missing bytes of {@code range}, which a stream will read in order, until a
   * part finds no memory ({@link Admission#inTurn}).
   *
   * @return the first byte of {@code range} not asked for: {@code range.end() + 1} if none is left
   */
  long prefetchInTurn(ObjectBlocks blocks, ByteRange range, FetchContext context, boolean waited)
      throws IOException {
    fetcher.ensureOpen();
    return admission.inTurn(blocks, range, context, waited);
  }

  /** Counts {@code bytes} asked for ahead that will not be fetched, for want of memory. */
  void countRefused(long bytes) {
    admission.countRefused(bytes);
  }

  /**
   * The largest prefetch asked for at once by a stream reading ahead of itself: a sixteenth of the
   * memory limit, at least 1 MiB, so that a small limit holds a dozen GETs in flight rather than
   * one or two large ones (at 25 ms to first byte and 90 MB/s a connection, 32 MB in GETs of 2 MiB
   * carry about 500 MB/s, in GETs of 4 MiB 350).
   */
  long largestPrefetch() {
    return largestPrefetch;
  }

  /**
   * Whether a read of {@code [position, end]} of {@code blocks} that found no block goes straight
   * into its caller's buffer: when it is at least 1 MiB (and no shorter than a miss is widened to,
   * so a block would hold only its own bytes), no other stream has the object open to want them, no
   * block holds any of them, and no tier below memory would keep them. Its bytes are then copied
   * once, from the response into the caller's buffer, and take no memory from the budget.
   */
  boolean readsStraight(ObjectBlocks blocks, long position, long end) {
    return lower.isEmpty()
        && blocks.length() > scanLength
        && end - position + 1 >= straightReadBytes
        && blocks.openStreams() <= 1
        && !blocks.holdsAny(position, end);
  }

  /**
   * The memory prefetches leave free for reads: the smaller of {@code largestPrefetch} and an
   * eighth of the limit, but at least a read's block at the read-ahead size (at most half the
   * limit).
   */
  private static long readersReserve(PhysicalIOConfiguration configuration, long largestPrefetch) {
    long limit = configuration.maxMemoryLimit();
    return Math.min(
        limit / 2, Math.max(configuration.readAheadBytes(), Math.min(largestPrefetch, limit / 8)));
  }

  /** See {@link Admission#directParts}. */
  List<ByteRange> directParts(ObjectBlocks blocks, ByteRange range) {
    return admission.directParts(blocks, range);
  }

  /** See {@link MemoryTier#readThrough}. */
  void readThrough(Block block) {
    memory.readThrough(block);
  }

  /** Records an access to {@code block} for the eviction policy. */
  void touch(Block block) {
    memory.touch(block);
  }

  /** See {@link Fetcher#getAsync}. */
  CompletableFuture<Void> getAsync(
      ObjectBlocks blocks, ByteRange range, FetchContext context, Fetcher.BodyReader reader) {
    return fetcher.getAsync(blocks, range, context, reader);
  }

  /** Counts a GET sent because a read needed its bytes at once. */
  void countDemandGet() {
    fetcher.countDemandGet();
  }

  /** The size GETs are split into now, from what GETs have shown so far. */
  long requestSize() {
    return link.requestSize();
  }

  /** The break-even gap for merging ranges, from what GETs have shown so far. */
  long measuredMergeGap() {
    return link.mergeGap();
  }

  /** Bytes reserved now, held or in flight. */
  long memoryUsed() {
    return memory.used();
  }

  /** The most bytes ever reserved at once. */
  long memoryHighWaterMark() {
    return memory.highWaterMark();
  }

  /** How many objects have state here (open streams or cached bytes). */
  int trackedObjects() {
    return index.trackedObjects();
  }

  /** The budget of the JVM this store's memory counts against. */
  SharedBudget jvmBudget() {
    return memory.jvmBudget();
  }

  /**
   * Aborts every GET in flight (waiting for headers or receiving a body), stops the fetch threads,
   * closes the tiers below memory (the disk tier waits for its queued writes, which pin blocks),
   * drops every block and closes the memory tier, so that no thread, connection or reservation is
   * left.
   */
  @Override
  public void close() {
    fetcher.close();
    lower.forEach(Tier::close);
    memory.close();
    IOException closedError = new IOException("The stream factory is closed");
    for (Block block : memory.blocks()) {
      if (!block.isComplete()) {
        block.fail(closedError);
      }
      memory.drop(block);
    }
  }
}
