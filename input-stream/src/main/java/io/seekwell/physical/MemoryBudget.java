package io.seekwell.physical;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The hard bound on block memory: every block's bytes are reserved here before its GET is sent and
 * released when the block is gone, so bytes held plus bytes in flight never exceed the limit.
 * Lock-free and thread-safe. Records its own high-water mark.
 */
final class MemoryBudget {

  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong highWaterMark = new AtomicLong();

  MemoryBudget(long limit) {
    this.limit = limit;
  }

  /** Reserves {@code bytes} if that keeps the total within the limit. */
  boolean tryReserve(long bytes) {
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

  /** Returns {@code bytes} reserved earlier. */
  void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Bytes reserved now. */
  long used() {
    return used.get();
  }

  /** The most bytes ever reserved at once. */
  long highWaterMark() {
    return highWaterMark.get();
  }

  long limit() {
    return limit;
  }
}
