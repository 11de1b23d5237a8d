package io.seekwell.physical;

import io.seekwell.PhysicalIOConfiguration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pages block bytes live in, for every factory of the JVM: arrays of {@link #PAGE} bytes kept
 * once made and handed from one block to the next, so that a scan, a new stream or a new factory
 * reuses memory instead of allocating (and zeroing) fresh arrays for the collector. Pages are heap
 * arrays: GET bodies and callers' buffers are {@code byte[]}, so a heap page takes the bytes from
 * the socket's stream and gives them to the caller with one copy each way, where direct memory
 * would need a heap array between ({@code PageMemoryBenchmark}: 64 MiB in and out in 5.9 ms through
 * heap pages, 7.4 ms through direct ones); a long-lived primitive array costs the collector nothing
 * to keep.
 *
 * <p>A block of {@code n} bytes holds {@code n / PAGE} whole pages and, if {@code n} is not a
 * multiple, one shorter last array made for it (small, short-lived, not kept). Every page made and
 * every page kept counts against the {@link SharedBudget}: what is kept is reachable. A block that
 * does not fit frees kept pages first. Lock-free; a reused page holds bytes of an earlier block,
 * and a {@link Block} exposes only what its own fill wrote.
 */
final class PagePool {

  /** Bytes per page: the granule of the disk tier, and small enough to never be a huge object. */
  static final int PAGE = 64 * 1024;

  private static volatile PagePool jvm;
  private static volatile PhysicalIOConfiguration.JvmBudget jvmSizing; // set with jvm

  private final SharedBudget budget;
  private final ConcurrentLinkedQueue<byte[]> kept = new ConcurrentLinkedQueue<>();
  private final AtomicLong keptPages = new AtomicLong();
  private final AtomicLong pagesMade = new AtomicLong();

  /** A pool drawing from {@code budget}. */
  PagePool(SharedBudget budget) {
    this.budget = budget;
  }

  /**
   * The pool of this JVM, bounded by {@link PhysicalIOConfiguration#jvmBudget()} as the first
   * factory found it.
   *
   * @throws IllegalArgumentException naming {@code seekwell.memory.limit} if it is set to no size
   */
  static PagePool jvm() {
    PagePool pool = jvm;
    if (pool == null) {
      synchronized (PagePool.class) {
        pool = jvm;
        if (pool == null) {
          PhysicalIOConfiguration.JvmBudget sizing = PhysicalIOConfiguration.jvmBudget();
          pool = new PagePool(new SharedBudget(sizing.bytes()));
          jvmSizing = sizing;
          jvm = pool;
        }
      }
    }
    return pool;
  }

  /**
   * What the pool of this JVM ({@link #jvm()}) was sized with.
   *
   * @throws IllegalArgumentException naming {@code seekwell.memory.limit} if it is set to no size
   */
  static PhysicalIOConfiguration.JvmBudget jvmSizing() {
    jvm();
    return jvmSizing;
  }

  /**
   * The arrays of a block of {@code size} bytes: whole pages, kept ones first, then a shorter last
   * array if needed; null if the budget has no room for what must be made (leaving {@code spare}
   * bytes of it free), even with no page kept.
   */
  byte[][] tryTake(int size, long spare) {
    int whole = size / PAGE;
    int last = size % PAGE;
    byte[][] pages = new byte[whole + (last > 0 ? 1 : 0)][];
    int reused = 0;
    for (byte[] page; reused < whole && (page = kept.poll()) != null; reused++) {
      keptPages.decrementAndGet();
      pages[reused] = page;
    }
    long made = (long) (whole - reused) * PAGE + last;
    if (made > 0 && !reserve(made, spare)) {
      for (int i = 0; i < reused; i++) {
        keep(pages[i]);
      }
      return null;
    }
    for (int i = reused; i < whole; i++) {
      pages[i] = new byte[PAGE];
    }
    pagesMade.addAndGet(whole - reused);
    if (last > 0) {
      pages[whole] = new byte[last];
    }
    return pages;
  }

  /** Gives back the arrays of {@link #tryTake}: whole pages are kept, a shorter one released. */
  void give(byte[][] pages) {
    for (byte[] page : pages) {
      if (page.length == PAGE) {
        keep(page);
      } else {
        budget.bound().release(page.length);
      }
    }
  }

  private void keep(byte[] page) {
    kept.add(page);
    keptPages.incrementAndGet();
  }

  /**
   * Reserves {@code bytes} in the budget, leaving {@code spare} free, releasing kept pages for them
   * if need be.
   */
  private boolean reserve(long bytes, long spare) {
    while (!budget.bound().tryReserve(bytes, spare)) {
      if (kept.poll() == null) {
        return false;
      }
      keptPages.decrementAndGet();
      budget.bound().release(PAGE);
    }
    return true;
  }

  /**
   * Bytes that blocks must give back before {@code bytes} more fit in the budget (kept pages are
   * free to take); zero or less if they fit now.
   */
  long deficit(long bytes) {
    return budget.bound().deficit(bytes) - keptBytes();
  }

  /** The budget every page counts against. */
  SharedBudget budget() {
    return budget;
  }

  /** Bytes of pages kept for reuse now. */
  long keptBytes() {
    return keptPages.get() * PAGE;
  }

  /** How many pages the pool has ever made: flat once a workload's pages are in use. */
  long pagesMade() {
    return pagesMade.get();
  }
}
