package io.seekwell.physical;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hard bound on block memory, and the arrays blocks hold. Every block's array is taken here
 * before its GET is sent and given back when the block is gone, so bytes held plus bytes in flight
 * never exceed the limit.
 *
 * <p>Arrays given back of at least {@link #POOLED_MIN} bytes are kept, up to an eighth of the
 * limit, for the next blocks of about their size: a scan then reuses a few arrays instead of
 * allocating (and zeroing) a fresh one per GET, which costs more than the copy on a fast network
 * and grows the heap. Kept arrays stay counted in the limit (they are reachable); an array that
 * does not fit frees them first. A reused array holds bytes of an earlier block: a {@link Block}
 * exposes only what its own GET has filled. Records its own high-water mark. Its concurrency rules
 * are in {@link BlockStore}'s design notes.
 */
final class MemoryBudget {

  /** Arrays smaller than this are not kept: allocating them is cheap. */
  static final int POOLED_MIN = 1 << 20;

  private final long limit;
  private final long poolLimit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong highWaterMark = new AtomicLong();
  private final ConcurrentLinkedQueue<byte[]> pool = new ConcurrentLinkedQueue<>();
  private final AtomicLong pooled = new AtomicLong();
  private volatile boolean closed;

  MemoryBudget(long limit) {
    this.limit = limit;
    this.poolLimit = limit / 8;
  }

  /**
   * An array of at least {@code size} bytes (at most an eighth more), counted in the budget; null
   * if it would not fit in the limit even with no array kept.
   */
  byte[] tryAllocate(int size) {
    byte[] kept = takeKept(size);
    if (kept != null) {
      return kept;
    }
    if (tryReserve(size) || (freeKept() && tryReserve(size))) {
      return new byte[size];
    }
    return null;
  }

  /** Gives back an array from {@link #tryAllocate}; it is kept for reuse or its bytes released. */
  void free(byte[] array) {
    if (!closed && array.length >= POOLED_MIN) {
      if (pooled.addAndGet(array.length) <= poolLimit) {
        pool.add(array);
        if (closed) {
          freeKept();
        }
        return;
      }
      pooled.addAndGet(-array.length);
    }
    used.addAndGet(-array.length);
  }

  private byte[] takeKept(int size) {
    if (size < POOLED_MIN) {
      return null;
    }
    long largest = size + size / 8;
    for (Iterator<byte[]> it = pool.iterator(); it.hasNext(); ) {
      byte[] array = it.next();
      if (array.length >= size && array.length <= largest && pool.remove(array)) {
        pooled.addAndGet(-array.length);
        return array;
      }
    }
    return null;
  }

  /** Releases every kept array; whether there was one. */
  private boolean freeKept() {
    boolean freed = false;
    for (byte[] array = pool.poll(); array != null; array = pool.poll()) {
      pooled.addAndGet(-array.length);
      used.addAndGet(-array.length);
      freed = true;
    }
    return freed;
  }

  /** Frees the kept arrays and keeps none from now on. */
  void close() {
    closed = true;
    freeKept();
  }

  private boolean tryReserve(long bytes) {
    long now;
    long next;
    do {
      now = used.get();
      next = now + bytes;
      if (next > limit) {
        return false;
      }
    } while (!used.compareAndSet(now, next));
    highWaterMark.accumulateAndGet(next, Math::max);
    return true;
  }

  /** Bytes counted now: arrays of blocks, and arrays kept for reuse. */
  long used() {
    return used.get();
  }

  /** Bytes of arrays kept for reuse. */
  long kept() {
    return pooled.get();
  }

  /** The most bytes ever counted at once. */
  long highWaterMark() {
    return highWaterMark.get();
  }

  long limit() {
    return limit;
  }
}
