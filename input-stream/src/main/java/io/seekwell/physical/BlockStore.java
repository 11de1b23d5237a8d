package io.seekwell.physical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The block cache of one factory, shared by all its streams: plans and sends the GETs for missed
 * bytes, admits them against the hard {@link MemoryBudget}, and evicts blocks (ranked by Caffeine's
 * policy, weighed by size) to make room. Thread-safe.
 *
 * <p><b>Design notes: the rules of the block cache.</b>
 *
 * <p>These notes are the one place where the concurrency rules of {@code BlockStore}, {@link
 * Block}, {@link ObjectBlocks}, {@link MemoryBudget} and {@link ObjectReader} are written down.
 *
 * <p><b>What is where.</b> A {@link Block} holds the bytes of one GET of one object version. It
 * sits in two places: the Caffeine cache (keyed by {@link BlockKey}: its owner and start), which
 * ranks blocks for eviction, and its owner {@link ObjectBlocks} (by start), which readers search.
 * The index {@code objects} maps an {@link ObjectKey} (location, SSE-C key, version) to the {@link
 * ObjectBlocks} that new streams share.
 *
 * <p><b>Reservation.</b> A block's array is taken from the {@link MemoryBudget} before its GET is
 * sent ({@link #fetch}, under the object's plan lock) and given back exactly once: when the block
 * is out of the cache ({@link Block#evict}) and nobody pins it; the last of the two gives it back,
 * with a compare-and-set of its pin count from 0 to released. The block drops its reference then,
 * so a stale reference to the block (an idle reader's hint, a detached object) keeps no array
 * reachable. The budget counts what is reachable, not only what was reserved: the arrays of blocks,
 * and the arrays it keeps for the next blocks, which it frees before a block would be evicted.
 *
 * <p><b>Pinning.</b> A block is created pinned once for its fetcher, which unpins it when the body
 * is in or has failed. A reader pins it ({@link Block#tryPin}) before copying and unpins after; a
 * block already released cannot be pinned, and the reader plans again. A vectored copy pins every
 * block it needs until its bytes arrive or the read timeout passes, then unpins on every path.
 *
 * <p><b>Weight.</b> A block weighs 0 while it fills, so Caffeine never ranks it for eviction (its
 * memory is already counted in the budget), and is re-weighed to its size once complete ({@code
 * replace(key, block, block)}). Caffeine's maximum weight is the budget's limit, which the budget
 * keeps it from reaching, so every eviction is decided here.
 *
 * <p><b>Eviction tiers.</b> When a reservation does not fit, {@link #evictFor} takes complete
 * blocks, coldest first: first those readers are done with (read to their end, or of objects no
 * stream has open), then blocks that were read, last prefetched blocks nobody has read. A prefetch
 * may only take the first tier; a read may take all three.
 *
 * <p><b>Scans.</b> A block fetched ahead for a stream that reads it once ({@link
 * FetchPurpose#SCAN}: read-ahead, column chunks, vectored ranges), of an object longer than a
 * quarter of the memory limit, is dropped as soon as the stream has read every byte of it, if no
 * other stream has the object open ({@link #readThrough}). A scan then holds only its read-ahead,
 * and does not push the rest of the cache out for bytes read once; a second scan of the object
 * fetches them again. Blocks a read asked for, blocks fetched ahead of reads that may come again
 * (footers, small objects), and blocks with bytes nobody read stay cached.
 *
 * <p><b>The disk tier.</b> For an immutable object, a block's fetch thread first fills it with what
 * the {@link DiskTier} holds of its range, and sends a GET only for the rest; once complete, its
 * granules are queued for the tier's writer, which pins it (so its memory stays counted) until
 * written. A large scan is not written (unless {@code physicalio.disk.cache.scans}), for the reason
 * the memory tier drops it. The tier's own rules are in its design notes.
 *
 * <p><b>The index.</b> An {@code objects} entry, and the stream count of its {@link ObjectBlocks},
 * change only inside {@code ConcurrentHashMap.compute} for its key, so opening, closing and the
 * removal of an object's last block are atomic per object. An {@link ObjectBlocks} replaced in the
 * index (a by-length version whose metadata expired, see {@link #retain}) stays reachable from its
 * streams and blocks only; identity checks keep it from removing its successor.
 *
 * <p><b>Who calls what, from which thread.</b> Stream threads (one or several per stream: a
 * stream's positional reads may run concurrently) read through {@link ObjectReader}: {@link #fetch}
 * (which takes the object's plan lock while planning, never during I/O), {@link #touch}, and {@link
 * #get} for direct reads. Fetch threads run {@link #get} for blocks and fill them; waiters of a
 * block are completed on the fetch thread that received their bytes. Any thread may call {@link
 * #release}, both {@code invalidate} methods and {@link #close}. The store-wide eviction lock is
 * taken only when a reservation does not fit, and never while waiting for I/O; there is no lock on
 * the path of a read of cached bytes.
 *
 * <p><b>Versions.</b> Every GET of a version carries its ETag as {@code If-Match} once known; a
 * response naming another version, or a 412, drops the version's blocks and metadata ({@link
 * #invalidate(ObjectBlocks)}); {@link #invalidate(ObjectLocation)} forgets every version of an
 * object its caller wrote or deleted. Bytes are shared only between streams whose requests carry
 * the same SSE-C key.
 *
 * <p><b>Closing.</b> {@link #close} cancels every GET waiting for headers, closes every body being
 * received (which ends blocked reads), stops the fetch threads and drops every block, so no thread,
 * connection or reservation is left.
 */
final class BlockStore implements AutoCloseable {

  private static final AtomicInteger STORE_IDS = new AtomicInteger();

  private final ObjectClient client;
  private final RequestPlanner planner;
  private final MemoryBudget budget;
  private final Cache<BlockKey, Block> cache;
  private final ConcurrentHashMap<ObjectKey, ObjectBlocks> objects = new ConcurrentHashMap<>();
  private final ThreadPoolExecutor fetchPool;
  private final ReentrantLock evictionLock = new ReentrantLock();
  private final MetadataStore metadata;
  private final long readTimeoutNanos;
  private final long scanLength;
  private final Metrics metrics;
  private final LinkStats link;
  private final Ticker ticker;
  private final Set<CompletableFuture<ObjectContent>> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<ObjectContent> bodies = ConcurrentHashMap.newKeySet();
  private final DiskTier disk;
  private final boolean diskScans;
  private volatile boolean closed;

  /**
   * A store that fetches with {@code client}; it tells {@code metadata} the versions GET responses
   * name and forgets an object's metadata when a GET finds that its ETag no longer matches. GETs
   * are timed with {@code ticker}, for the link's statistics. Blocks of immutable objects go
   * through the disk tier {@code diskCache} configures, if any and if its directory can be used
   * ({@code space} tells the usable bytes there); if not, the store reads without it.
   */
  BlockStore(
      ObjectClient client,
      PhysicalIOConfiguration configuration,
      DiskCacheConfiguration diskCache,
      UsableSpace space,
      Metrics metrics,
      MetadataStore metadata,
      Ticker ticker) {
    this.client = client;
    this.ticker = ticker;
    this.metrics = metrics;
    this.link =
        new LinkStats(configuration.targetRequestSize(), configuration.largestRequestSize());
    this.planner = new RequestPlanner(configuration, link::requestSize);
    this.budget = new MemoryBudget(configuration.maxMemoryLimit());
    this.metadata = metadata;
    this.readTimeoutNanos = configuration.readTimeout().toNanos();
    this.scanLength = configuration.maxMemoryLimit() / 4;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(configuration.maxMemoryLimit())
            .weigher((BlockKey key, Block block) -> block.weight())
            .evictionListener((BlockKey key, Block block, RemovalCause cause) -> forget(block))
            .executor(Runnable::run)
            .build();
    this.fetchPool =
        DaemonPools.bounded(
            "seekwell-fetch-" + STORE_IDS.incrementAndGet() + "-", configuration.fetchThreads());
    this.disk =
        diskCache.isEnabled()
            ? DiskTier.acquire(
                    diskCache, configuration.maxMemoryLimit() / 8, ticker::nanos, space, metrics)
                .orElse(null)
            : null;
    this.diskScans = diskCache.scans();
  }

  /**
   * The blocks of {@code key}, counted as used by one more stream. A version opened by length whose
   * first GET named this ETag is shared rather than fetched again. An object opened by length whose
   * earlier by-length blocks are pinned to a version is only opened so when its metadata is no
   * longer cached: that version may have been overwritten since, so the new stream gets fresh
   * blocks and the old ones are dropped (their streams keep reading them until they close).
   */
  ObjectBlocks retain(ObjectKey key) {
    if (key.isPinned() && !objects.containsKey(key)) {
      ObjectBlocks[] pinnedByResponse = new ObjectBlocks[1];
      objects.computeIfPresent(
          ObjectKey.byLength(key.scope(), key.length()),
          (k, byLength) -> {
            if (key.etag().equals(byLength.etag())) {
              byLength.streamOpened();
              pinnedByResponse[0] = byLength;
            }
            return byLength;
          });
      if (pinnedByResponse[0] != null) {
        return pinnedByResponse[0];
      }
    }
    ObjectBlocks[] detached = new ObjectBlocks[1];
    ObjectBlocks retained =
        objects.compute(
            key,
            (k, existing) -> {
              ObjectBlocks blocks = existing;
              if (blocks == null || (!k.isPinned() && blocks.etag() != null)) {
                detached[0] = existing;
                blocks = new ObjectBlocks(k);
              }
              blocks.streamOpened();
              return blocks;
            });
    if (detached[0] != null) {
      dropBlocks(detached[0]);
    }
    return retained;
  }

  /**
   * As {@link #release}, then drops the object's blocks if no stream has it open (one that opens it
   * meanwhile fetches afresh what it needs).
   */
  void discard(ObjectBlocks blocks) {
    release(blocks);
    if (!blocks.isOpen()) {
      dropBlocks(blocks);
    }
  }

  /**
   * Checks that a GET response for {@code blocks} comes from their version, pinning the version to
   * the response's ETag if the object was opened by length and this is its first response.
   *
   * @throws ObjectChangedException if the response names another version
   */
  void checkVersion(ObjectBlocks blocks, ObjectContent content) throws ObjectChangedException {
    String pinned = blocks.pin(content.etag());
    if (pinned == null && objects.get(blocks.key()) == blocks) {
      metadata.remember(blocks.key().scope(), ObjectMetadata.of(blocks.length(), content.etag()));
    } else if (!pinned.equals(content.etag())) {
      throw new ObjectChangedException(
          blocks.key().location()
              + " changed while it was read: ETag "
              + content.etag()
              + " where "
              + pinned
              + " was read before",
          null);
    }
  }

  /** One stream less uses {@code blocks}; the object's state goes when nothing of it is left. */
  void release(ObjectBlocks blocks) {
    objects.compute(
        blocks.key(),
        (k, current) -> {
          blocks.streamClosed();
          return current == blocks && blocks.isUnused() ? null : current;
        });
  }

  /**
   * Makes sure GETs are in flight for the bytes around a read of {@code [position, end]}: the
   * missing parts of the widened window. Parts the read needs may evict blocks to get memory; parts
   * only read ahead are refused when there is no room.
   *
   * @return false if no memory could be found for the block holding {@code position}: the caller
   *     then reads those bytes straight into its own buffer
   */
  boolean fetch(
      ObjectBlocks blocks, long position, long end, FetchContext context, FetchPurpose purpose)
      throws IOException {
    ensureOpen();
    ByteRange window = planner.window(position, end, blocks.length());
    blocks.planLock().lock();
    try {
      for (ByteRange part : planner.missingParts(window, blocks.blocks())) {
        byte[] array = admit(Math.toIntExact(part.length()), purpose.isPrefetch());
        if (array == null) {
          return !part.contains(position);
        }
        start(blocks, part, array, context, purpose);
      }
      return true;
    } finally {
      blocks.planLock().unlock();
    }
  }

  /**
   * Called by a stream that has just read through the end of {@code block}, which it pins: drops
   * the block if the stream is scanning the object (see the design notes).
   */
  void readThrough(Block block) {
    if (isLargeScan(block) && block.key().owner().openStreams() <= 1 && block.isFullyRead()) {
      drop(block);
    }
  }

  /** Whether {@code block} was fetched ahead of one stream that scans a large object. */
  private boolean isLargeScan(Block block) {
    return block.isForScan() && block.key().owner().length() > scanLength;
  }

  /** Records an access to {@code block} for the eviction policy. */
  void touch(Block block) {
    cache.getIfPresent(block.key());
  }

  /** An array for a block of {@code bytes}, evicting to make room; null if none can be found. */
  private byte[] admit(int bytes, boolean prefetch) {
    byte[] array = budget.tryAllocate(bytes);
    if (array != null) {
      return array;
    }
    evictFor(bytes, prefetch);
    return budget.tryAllocate(bytes);
  }

  /** Which complete blocks an eviction may take, in the order it tries them. */
  private enum Victims {
    /** Blocks read to their end, and blocks of objects no stream has open. */
    DONE_WITH,
    /** Blocks some reader has read from. */
    READ,
    /** Every complete block, prefetched ones nobody has read included. */
    ANY;

    boolean allows(Block block, ObjectBlocks owner) {
      return switch (this) {
        case DONE_WITH -> block.isConsumed() || !owner.isOpen();
        case READ -> block.wasRead();
        case ANY -> true;
      };
    }
  }

  /**
   * Evicts complete blocks, coldest first as Caffeine's policy ranks them, until {@code bytes} more
   * would fit. A prefetch may only evict blocks readers are done with; a read may then evict blocks
   * that were read, and last prefetched blocks nobody has read yet. Blocks still receiving are
   * never evicted; a block a reader is copying from returns its memory when the reader is done.
   */
  private void evictFor(long bytes, boolean prefetch) {
    evictionLock.lock();
    try {
      Policy.Eviction<BlockKey, Block> eviction = cache.policy().eviction().orElseThrow();
      for (Victims kind : prefetch ? new Victims[] {Victims.DONE_WITH} : Victims.values()) {
        long deficit = budget.used() + bytes - budget.limit();
        if (deficit <= 0) {
          return;
        }
        List<Block> victims = eviction.coldest(entries -> pick(entries.iterator(), deficit, kind));
        victims.forEach(this::drop);
      }
    } finally {
      evictionLock.unlock();
    }
  }

  private List<Block> pick(
      Iterator<Policy.CacheEntry<BlockKey, Block>> coldestFirst, long deficit, Victims kind) {
    List<Block> victims = new ArrayList<>();
    long freed = 0;
    while (freed < deficit && coldestFirst.hasNext()) {
      Block block = coldestFirst.next().getValue();
      if (block.weight() > 0 && kind.allows(block, block.key().owner())) {
        victims.add(block);
        freed += block.weight();
      }
    }
    return victims;
  }

  private void start(
      ObjectBlocks blocks,
      ByteRange part,
      byte[] array,
      FetchContext context,
      FetchPurpose purpose) {
    Block block = new Block(new BlockKey(blocks, part.start()), part, array, budget, purpose);
    if (purpose.isPrefetch()) {
      metrics.add(Metric.PREFETCHED_BYTES, part.length());
    }
    blocks.add(block);
    cache.put(block.key(), block);
    try {
      fetchPool.execute(() -> receive(blocks, block, context));
    } catch (RejectedExecutionException e) {
      block.fail(new IOException("The stream factory is closed", e));
      drop(block);
      block.unpin();
    }
  }

  private void receive(ObjectBlocks blocks, Block block, FetchContext context) {
    try {
      boolean onDisk = disk != null && context.immutable();
      if (onDisk) {
        // Hits and bytes are counted as the disk serves them; a miss before the GET.
        disk.fill(blocks.key(), block, metrics, context.options().streamMetrics());
        if (!block.isComplete()) {
          metrics.increment(Metric.DISK_MISSES);
          context.options().streamMetrics().ifPresent(s -> s.increment(Metric.DISK_MISSES));
        }
      }
      if (!block.isComplete()) {
        if (!block.isPrefetched()) {
          countDemandGet();
        }
        ByteRange rest = block.range().suffixFrom(block.range().start() + block.filled());
        FetchContext sent = block.isPrefetched() ? context.asPrefetch() : context;
        try {
          get(blocks, rest, sent, block::fillFrom);
        } catch (IOException e) {
          // Once every byte is in (of the version checked before the first), what fails after it
          // (the factory closing while the exchange ends) costs the block nothing.
          if (!block.isComplete()) {
            throw e;
          }
        }
        if (onDisk && (diskScans || !isLargeScan(block))) {
          disk.store(blocks.key(), block, metrics);
        }
      }
      cache.asMap().replace(block.key(), block, block);
    } catch (IOException e) {
      // Forget first, so that whoever sees the failure also finds the object forgotten.
      drop(block);
      block.fail(e);
    } catch (RuntimeException | Error e) {
      // Errors too go to the readers, not to the fetch thread's uncaught handler.
      drop(block);
      block.fail(
          new IOException("GET " + blocks.key().location() + " " + block.range() + " failed", e));
    } finally {
      block.unpin();
    }
  }

  /** Runs {@link #get} on a fetch thread; the future completes when the body is read. */
  CompletableFuture<Void> getAsync(
      ObjectBlocks blocks, ByteRange range, FetchContext context, BodyReader reader) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      fetchPool.execute(
          () -> {
            try {
              get(blocks, range, context, reader);
              done.complete(null);
            } catch (IOException | RuntimeException | Error e) {
              done.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException e) {
      done.completeExceptionally(new IOException("The stream factory is closed", e));
    }
    return done;
  }

  /** What reads a GET's body. */
  interface BodyReader {
    void read(InputStream body) throws IOException;
  }

  /**
   * The one GET routine: sends a GET of {@code range} of {@code blocks}' version (with If-Match
   * once the version is known), waits for its headers, checks the version, and hands the body to
   * {@code reader}. A changed object drops the version's cached bytes and metadata. The GET is
   * aborted if the store closes meanwhile.
   *
   * @throws IOException naming the object and the range, if the GET or the body fails
   */
  void get(ObjectBlocks blocks, ByteRange range, FetchContext context, BodyReader reader)
      throws IOException {
    ensureOpen();
    context.onGet().accept(range);
    GetRequest request =
        new GetRequest(
            blocks.key().location(), range, Optional.ofNullable(blocks.etag()), context.options());
    long sent = ticker.nanos();
    CompletableFuture<ObjectContent> response = client.getObject(request);
    inFlight.add(response);
    try {
      if (closed) {
        response.cancel(true);
      }
      try (ObjectContent content =
          Futures.awaitClosingLate(response, readTimeoutNanos, "GET " + request.describe())) {
        long firstByte = ticker.nanos();
        bodies.add(content);
        try {
          checkVersion(blocks, content);
          reader.read(content.stream());
        } finally {
          bodies.remove(content);
        }
        link.record(firstByte - sent, range.length(), ticker.nanos() - firstByte);
      }
    } catch (ObjectChangedException e) {
      invalidate(blocks);
      throw e;
    } catch (IOException e) {
      throw closed ? new IOException("The stream factory is closed", e) : e;
    } finally {
      inFlight.remove(response);
    }
  }

  /**
   * Forgets everything of {@code location}, every version and SSE-C key: its metadata, and its
   * blocks, which leave the index so that the next open fetches afresh. Streams already open keep
   * reading what they hold until they close; their responses no longer teach the metadata store.
   */
  void invalidate(ObjectLocation location) {
    for (ObjectKey key : objects.keySet()) {
      if (key.location().equals(location)) {
        ObjectBlocks detached = objects.remove(key);
        if (detached != null) {
          dropBlocks(detached);
        }
      }
    }
    metadata.invalidate(location);
  }

  /** Drops every cached block of {@code blocks}' version and the object's metadata. */
  void invalidate(ObjectBlocks blocks) {
    dropBlocks(blocks);
    metadata.invalidate(blocks.key().scope());
  }

  private void dropBlocks(ObjectBlocks blocks) {
    for (Block block : blocks.blocks().values()) {
      drop(block);
    }
  }

  /** Removes a block from the cache at once (not through the eviction policy). */
  private void drop(Block block) {
    if (cache.asMap().remove(block.key(), block)) {
      forget(block);
    } else {
      forgetFromObject(block);
    }
  }

  /** Counts a GET sent because a read needed its bytes at once. */
  void countDemandGet() {
    metrics.increment(Metric.DEMAND_GET_REQUESTS);
  }

  /** The cache no longer holds {@code block}: release it and remove it from its object. */
  private void forget(Block block) {
    long unread = block.unreadBytes();
    if (unread > 0) {
      metrics.add(Metric.PREFETCHED_BYTES_UNUSED, unread);
    }
    block.evict();
    forgetFromObject(block);
  }

  private void forgetFromObject(Block block) {
    ObjectBlocks owner = block.key().owner();
    objects.compute(
        owner.key(),
        (k, current) -> {
          owner.remove(block);
          return current == owner && owner.isUnused() ? null : current;
        });
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("The stream factory is closed");
    }
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
    return budget.used();
  }

  /** The most bytes ever reserved at once. */
  long memoryHighWaterMark() {
    return budget.highWaterMark();
  }

  /** How many objects have state here (open streams or cached bytes). */
  int trackedObjects() {
    return objects.size();
  }

  /**
   * Aborts every GET in flight (waiting for headers or receiving a body), stops the fetch threads
   * and drops every block, so that no thread, connection or reservation is left.
   */
  @Override
  public void close() {
    closed = true;
    inFlight.forEach(response -> response.cancel(true));
    bodies.forEach(Futures::closeQuietly);
    DaemonPools.shutdown(fetchPool);
    if (disk != null) {
      disk.release();
    }
    IOException closedError = new IOException("The stream factory is closed");
    for (Block block : cache.asMap().values()) {
      if (!block.isComplete()) {
        block.fail(closedError);
      }
      drop(block);
    }
    budget.close();
  }
}
