package io.seekwell.physical;

/**
 * The block memory of one factory: its own hard bound ({@code physicalio.max.memory.limit}) within
 * the JVM's {@link SharedBudget}, and the pages its blocks hold, taken from the JVM's {@link
 * PagePool} before a block's GET is sent and given back when the block is gone. So the factory's
 * bytes held plus bytes in flight never exceed its limit, and every factory's together never exceed
 * the JVM's. Records its own high-water mark. Lock-free; its concurrency rules are in {@link
 * BlockStore}'s design notes.
 */
final class MemoryBudget {

  private final ByteBound own;
  private final PagePool pool;

  /** A factory's budget of {@code limit} bytes, within {@code pool}'s. */
  MemoryBudget(long limit, PagePool pool) {
    this.own = new ByteBound(limit);
    this.pool = pool;
  }

  /**
   * The pages of a block of {@code size} bytes, counted here; null if they would leave less than
   * {@code spare} bytes free under this factory's limit or the JVM's.
   */
  byte[][] tryAllocate(int size, long spare) {
    if (!own.tryReserve(size, spare)) {
      return null;
    }
    byte[][] pages = pool.tryTake(size, spare);
    if (pages == null) {
      own.release(size);
    }
    return pages;
  }

  /** Gives back the pages of a block of {@code size} bytes, from {@link #tryAllocate}. */
  void free(byte[][] pages, int size) {
    pool.give(pages);
    own.release(size);
  }

  /** Bytes that blocks must give back before {@code bytes} more fit in this factory's limit. */
  long ownDeficit(long bytes) {
    return own.deficit(bytes);
  }

  /** Whether {@code bytes} more fit in this factory's own limit. */
  boolean fitsOwnLimit(long bytes) {
    return own.deficit(bytes) <= 0;
  }

  /** The JVM's pool the pages come from. */
  PagePool pool() {
    return pool;
  }

  /** This factory's count: bytes of its blocks, held or in flight, against its own limit. */
  ByteBound own() {
    return own;
  }
}
