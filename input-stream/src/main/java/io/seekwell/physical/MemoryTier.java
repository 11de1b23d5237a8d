package io.seekwell.physical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory tier of the block store: the blocks themselves, admitted against the hard {@link
 * MemoryBudget} and evicted (ranked by Caffeine's policy, weighed by size) to make room. Readers
 * find its blocks through their {@link ObjectBlocks}, without asking it; the rules it keeps are in
 * the design notes of {@link BlockStore} (reservation, weight, eviction tiers, scans, and who calls
 * what: its eviction lock).
 *
 * <p>As a {@link Tier}, it fills nothing: a new block is planned over bytes no block of its object
 * holds, so the memory tier has none of them. It takes every block once complete, which makes it a
 * candidate for eviction. Thread-safe.
 */
final class MemoryTier implements Tier, SharedBudget.Reclaimer {

  private static final Logger LOG = LoggerFactory.getLogger(MemoryTier.class);

  private final MemoryBudget budget;
  private final Cache<BlockKey, Block> cache;
  private final ReentrantLock evictionLock = new ReentrantLock();
  private final Metrics metrics;
  private final long scanLength;
  private final long readersReserve;
  private final Consumer<Block> leaveObject;

  /**
   * A tier of at most {@code limit} bytes of {@code pool}'s pages, counting in {@code metrics}, of
   * which prefetches leave {@code readersReserve} to reads; blocks of scans of objects longer than
   * {@code scanLength} go once read through. A block that leaves the tier is handed to {@code
   * leaveObject}, which takes it out of its object. The tier gives memory back to the pool's other
   * users when they are short, until it closes.
   */
  MemoryTier(
      long limit,
      long readersReserve,
      PagePool pool,
      long scanLength,
      Metrics metrics,
      Consumer<Block> leaveObject) {
    this.budget = new MemoryBudget(limit, pool);
    this.readersReserve = readersReserve;
    this.scanLength = scanLength;
    this.metrics = metrics;
    this.leaveObject = leaveObject;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(limit)
            .weigher((BlockKey key, Block block) -> block.weight())
            .evictionListener((BlockKey key, Block block, RemovalCause cause) -> forget(block))
            .executor(Runnable::run)
            .build();
    pool.budget().register(this);
  }

  /**
   * A new block of {@code part} of {@code owner}, its pages reserved, not yet in the tier ({@link
   * #add}); null if no memory can be found. To make room it evicts blocks of one kind at a time
   * ({@link Victims}), each kind before the next: its own while its own limit is short, then, while
   * the JVM's is, those of every factory of the pool, the largest holder first ({@link
   * SharedBudget#reclaimFor}). A prefetch may only evict blocks readers are done with; a read may
   * then evict blocks that were read. Prefetched bytes nobody has read yet are not evicted while
   * their object is open: a read that finds no other room goes straight into its caller's buffer
   * ({@link DirectRead}) rather than have them fetched twice. So that prefetches cannot fill the
   * whole limit with such blocks, a prefetch leaves the readers' reserve free: a small read then
   * always finds a block, and is never a GET of its own few bytes.
   */
  Block admit(ObjectBlocks owner, ByteRange part, FetchPurpose purpose) {
    int bytes = Math.toIntExact(part.length());
    long spare = purpose.isPrefetch() ? readersReserve : 0;
    byte[][] pages = budget.tryAllocate(bytes, spare);
    for (Victims kind : Victims.values()) {
      if (pages != null || (purpose.isPrefetch() && kind != Victims.DONE_WITH)) {
        break;
      }
      evictFor(bytes + spare, kind, budget::ownDeficit);
      if (budget.fitsOwnLimit(bytes + spare)) {
        jvmBudget().reclaimFor(bytes + spare, kind);
      }
      pages = budget.tryAllocate(bytes, spare);
    }
    return pages == null
        ? null
        : new Block(new BlockKey(owner, part.start()), part, pages, budget, purpose);
  }

  @Override
  public void reclaim(long bytes, Victims kind) {
    evictFor(bytes, kind, budget.pool()::deficit);
  }

  @Override
  public long heldBytes() {
    return budget.own().used();
  }

  /** Puts {@code block}, new and weighing 0 while it fills, in the tier. */
  void add(Block block) {
    cache.put(block.key(), block);
  }

  @Override
  public int fill(Block block, FetchContext context) {
    return 0;
  }

  /** Re-weighs the complete {@code block} to its size, so that the policy may rank it. */
  @Override
  public void take(Block block, FetchContext context) {
    cache.asMap().replace(block.key(), block, block);
  }

  /** Records an access to {@code block} for the eviction policy. */
  void touch(Block block) {
    cache.getIfPresent(block.key());
  }

  /**
   * Called by a stream that has just read through the end of {@code block}, which it pins: drops
   * the block if the stream is scanning the object (see the design notes of {@link BlockStore}).
   */
  void readThrough(Block block) {
    if (block.isScanBeyond(scanLength)
        && block.key().owner().openStreams() <= 1
        && block.isFullyRead()) {
      drop(block);
    }
  }

  /**
   * Evicts complete blocks of {@code kind}, coldest first as Caffeine's policy ranks them, until
   * {@code deficitFor} says {@code bytes} more would fit. Blocks still receiving are never evicted;
   * a block a reader is copying from returns its memory when the reader is done.
   */
  private void evictFor(long bytes, Victims kind, LongUnaryOperator deficitFor) {
    evictionLock.lock();
    try {
      long deficit = deficitFor.applyAsLong(bytes);
      if (deficit > 0) {
        Policy.Eviction<BlockKey, Block> eviction = cache.policy().eviction().orElseThrow();
        eviction.coldest(entries -> pick(entries.iterator(), deficit, kind)).forEach(this::drop);
      }
    } finally {
      evictionLock.unlock();
    }
  }

  private static List<Block> pick(
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

  /** Removes a block from the tier at once (not through the eviction policy). */
  void drop(Block block) {
    if (cache.asMap().remove(block.key(), block)) {
      forget(block);
    } else {
      leaveObject.accept(block);
    }
  }

  /** The tier no longer holds {@code block}: release it and take it out of its object. */
  private void forget(Block block) {
    long unread = block.unreadBytes();
    if (unread > 0) {
      metrics.add(Metric.PREFETCHED_BYTES_UNUSED, unread);
      LOG.debug(
          "{}: block {} leaves memory with {} bytes fetched ahead and never read",
          block.key().owner().key().location(),
          block.range(),
          unread);
    }
    block.evict();
    leaveObject.accept(block);
  }

  /** The blocks in the tier now; a live view. */
  Collection<Block> blocks() {
    return cache.asMap().values();
  }

  /** Bytes reserved now, held or in flight. */
  long used() {
    return budget.own().used();
  }

  /** The budget of the JVM the tier's memory counts against. */
  SharedBudget jvmBudget() {
    return budget.pool().budget();
  }

  /** The most bytes ever reserved at once. */
  long highWaterMark() {
    return budget.own().highWaterMark();
  }

  /** Stops giving memory to the pool's other users; call before every block is dropped. */
  @Override
  public void close() {
    budget.pool().budget().unregister(this);
  }
}
