package io.seekwell.physical;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A count of bytes that never exceeds its limit, and the most it ever reached. Lock-free: a
 * reservation is a compare-and-set loop, so concurrent reservations never overshoot together.
 */
final class ByteBound {

  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong highWaterMark = new AtomicLong();

  /** A bound of {@code limit} bytes. */
  ByteBound(long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("A memory bound must be positive: " + limit);
    }
    this.limit = limit;
  }

  /** Counts {@code bytes} more, unless that would exceed the limit. */
  boolean tryReserve(long bytes) {
    return tryReserve(bytes, 0);
  }

  /** Counts {@code bytes} more, unless that would leave less than {@code spare} below the limit. */
  boolean tryReserve(long bytes, long spare) {
    long now;
    long next;
    do {
      now = used.get();
      next = now + bytes;
      if (next > limit - spare) {
        return false;
      }
    } while (!used.compareAndSet(now, next));
    highWaterMark.accumulateAndGet(next, Math::max);
    return true;
  }

  /** Counts {@code bytes} less. */
  void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Bytes that must be released before {@code bytes} more fit; zero or less if they fit now. */
  long deficit(long bytes) {
    return used.get() + bytes - limit;
  }

  /** Bytes counted now. */
  long used() {
    return used.get();
  }

  /** The most bytes ever counted at once. */
  long highWaterMark() {
    return highWaterMark.get();
  }

  long limit() {
    return limit;
  }
}
