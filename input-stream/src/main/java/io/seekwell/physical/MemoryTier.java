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

  private final MemoryBudget budget;
  private final Cache<BlockKey, Block> cache;
  private final ReentrantLock evictionLock = new ReentrantLock();
  private final Metrics metrics;
  private final long scanLength;
  private final Consumer<Block> leaveObject;

  /**
   * A tier of at most {@code limit} bytes of {@code pool}'s pages, counting in {@code metrics};
   * blocks of scans of objects longer than {@code scanLength} go once read through. A block that
   * leaves the tier is handed to {@code leaveObject}, which takes it out of its object. The tier
   * gives memory back to the pool's other users when they are short, until it closes.
   */
  MemoryTier(
      long limit, PagePool pool, long scanLength, Metrics metrics, Consumer<Block> leaveObject) {
    this.budget = new MemoryBudget(limit, pool);
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
   * #add}); null if no memory can be found. To make room it evicts its own blocks first, then, if
   * the JVM's budget is what is short, asks the pool's other users to evict theirs. A prefetch may
   * only evict blocks readers are done with.
   */
  Block admit(ObjectBlocks owner, ByteRange part, FetchPurpose purpose) {
    int bytes = Math.toIntExact(part.length());
    boolean prefetch = purpose.isPrefetch();
    byte[][] pages = budget.tryAllocate(bytes);
    if (pages == null) {
      evictFor(bytes, prefetch ? PREFETCH : READ, budget::deficit);
      pages = budget.tryAllocate(bytes);
    }
    if (pages == null && budget.fitsOwnLimit(bytes)) {
      budget.pool().budget().reclaimFor(bytes, prefetch, this);
      pages = budget.tryAllocate(bytes);
    }
    return pages == null
        ? null
        : new Block(new BlockKey(owner, part.start()), part, pages, budget, purpose);
  }

  /** Evicts for another user of the pool: never prefetched blocks nobody has read. */
  @Override
  public void reclaim(long bytes, boolean prefetch) {
    evictFor(bytes, prefetch ? PREFETCH : FOR_OTHERS, budget.pool()::deficit);
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

  private static final Victims[] PREFETCH = {Victims.DONE_WITH};
  private static final Victims[] FOR_OTHERS = {Victims.DONE_WITH, Victims.READ};
  private static final Victims[] READ = Victims.values();

  /**
   * Evicts complete blocks of the {@code allowed} kinds, in that order, coldest first as Caffeine's
   * policy ranks them, until {@code deficit} says {@code bytes} more would fit. A prefetch may only
   * evict blocks readers are done with; a read may then evict blocks that were read, and last
   * prefetched blocks nobody has read yet. Blocks still receiving are never evicted; a block a
   * reader is copying from returns its memory when the reader is done.
   */
  private void evictFor(long bytes, Victims[] allowed, LongUnaryOperator deficitFor) {
    evictionLock.lock();
    try {
      Policy.Eviction<BlockKey, Block> eviction = cache.policy().eviction().orElseThrow();
      for (Victims kind : allowed) {
        long deficit = deficitFor.applyAsLong(bytes);
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
    return budget.used();
  }

  /** The budget of the JVM the tier's memory counts against. */
  SharedBudget jvmBudget() {
    return budget.pool().budget();
  }

  /** The most bytes ever reserved at once. */
  long highWaterMark() {
    return budget.highWaterMark();
  }

  /** Stops giving memory to the pool's other users; call before every block is dropped. */
  @Override
  public void close() {
    budget.pool().budget().unregister(this);
  }
}
