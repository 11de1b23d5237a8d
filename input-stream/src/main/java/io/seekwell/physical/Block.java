package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bytes of one GET: a contiguous range of one object version, filled by one fetcher while
 * readers copy out whatever has arrived. Thread-safe: one writer, many readers. Pinning, weight and
 * release follow the rules in {@link BlockStore}'s design notes.
 */
public final class Block {

  private static final int RELEASED = -1;

  /**
   * Hands the widening credit back once, with no object per block (an atomic field would add one).
   */
  private static final VarHandle WIDENING;

  static {
    try {
      WIDENING =
          MethodHandles.lookup().findVarHandle(Block.class, "widening", WideningCredit.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final BlockKey key;
  private final ByteRange range;
  private final int size;

  /**
   * The bytes, in pages ({@link Pages}); null once the memory is released, so that no stale holder
   * keeps it reachable.
   */
  private byte[][] pages;

  private final MemoryBudget budget;
  private final AtomicInteger pins = new AtomicInteger(1);
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition progress = lock.newCondition();
  private volatile int filled;
  private volatile IOException failure;
  private volatile boolean evicted;
  private volatile boolean read;
  private volatile int consumedTo;
  private final FetchPurpose purpose;

  /** For prefetched blocks, which granules readers touched; null otherwise. */
  private final ReadGranules readGranules;

  /**
   * For a block of a widened miss, the credit its first read from {@link #widenedFrom} on earns;
   * null otherwise and once earned (taken with a compare-and-set, so only once).
   */
  private volatile WideningCredit widening;

  /** Where a widened miss's extra bytes start in the block; written before {@link #widening}. */
  private int widenedFrom;

  private final PriorityQueue<Waiter> waiters =
      new PriorityQueue<>(Comparator.comparingInt(Waiter::bytes));

  /**
   * Readers blocked in {@link #copy} and waiters queued, each changed under the lock and read
   * without it by the fetcher, which takes the lock to wake them only when there are some. A reader
   * or waiter writes its count before it reads {@code filled} and {@code failure}; the fetcher (or
   * whoever fails the block) writes one of those before it reads the counts: one of the two sees
   * the other, so nobody misses an arrival or a failure.
   */
  private volatile int sleepers;

  private volatile int queuedWaiters;

  /** Someone who wants to know when the first {@code bytes} bytes have arrived. */
  private record Waiter(int bytes, CompletableFuture<Void> arrived) {}

  /**
   * A block of {@code range} in {@code pages}, from {@code budget}'s {@link
   * MemoryBudget#tryAllocate} for the range's length, fetched for {@code purpose}, pinned once for
   * its fetcher. Releasing the block gives the pages back to {@code budget}.
   */
  Block(BlockKey key, ByteRange range, byte[][] pages, MemoryBudget budget, FetchPurpose purpose) {
    this.purpose = purpose;
    this.key = key;
    this.range = range;
    this.size = Math.toIntExact(range.length());
    this.readGranules = purpose.isPrefetch() ? new ReadGranules(size) : null;
    if (Pages.length(pages) != size) {
      throw new IllegalArgumentException(
          "Pages of " + Pages.length(pages) + " bytes do not fit " + range);
    }
    this.pages = pages;
    this.budget = budget;
  }

  public BlockKey key() {
    return key;
  }

  public ByteRange range() {
    return range;
  }

  /** Whether the block was fetched ahead of any read. */
  boolean isPrefetched() {
    return purpose.isPrefetch();
  }

  /** Whether the block was fetched ahead of one stream that reads it once. */
  boolean isForScan() {
    return purpose == FetchPurpose.SCAN;
  }

  /** Whether the block was fetched ahead for a scan of an object longer than {@code length}. */
  public boolean isScanBeyond(long length) {
    return isForScan() && key.owner().length() > length;
  }

  /**
   * Marks the bytes of the block from {@code offset} on as a widened miss's extra bytes: the first
   * read of them earns {@code credit}. Called before the block is published to readers.
   */
  void widenedFrom(int offset, WideningCredit credit) {
    widenedFrom = offset;
    widening = credit;
  }

  /** Whether a reader has copied bytes from the block (prefetched blocks start unread). */
  boolean wasRead() {
    return read;
  }

  /** Whether readers have copied out the block's last byte: a sequential reader is done with it. */
  boolean isConsumed() {
    return consumedTo == size;
  }

  public boolean isComplete() {
    return filled == size;
  }

  /** The cache weight: zero while filling, so that in-flight blocks are never evicted. */
  int weight() {
    return isComplete() ? size : 0;
  }

  /** Pins the block unless its memory is already released. */
  boolean tryPin() {
    int current;
    do {
      current = pins.get();
      if (current == RELEASED) {
        return false;
      }
    } while (!pins.compareAndSet(current, current + 1));
    return true;
  }

  void unpin() {
    if (pins.decrementAndGet() == 0 && evicted) {
      releaseIfUnpinned();
    }
  }

  /** Marks the block gone from the cache; its memory is released once nobody uses it. */
  void evict() {
    evicted = true;
    releaseIfUnpinned();
  }

  private void releaseIfUnpinned() {
    if (pins.compareAndSet(0, RELEASED)) {
      byte[][] held = pages;
      pages = null;
      budget.free(held, size);
    }
  }

  /** Bytes of memory the block still holds: its size until released, then 0. */
  long heldBytes() {
    return pages == null ? 0 : size;
  }

  /** Receives the block's bytes from {@code body}; readers see each chunk as it arrives. */
  void fillFrom(InputStream body) throws IOException {
    fillInPlace(
        (at, array, offset, length) -> {
          int n = body.read(array, offset, length);
          if (n < 0) {
            throw new EOFException(
                "Body of " + range + " ended after " + filled + " of " + size + " bytes");
          }
          return n;
        });
  }

  /** Writes a block's next bytes into its pages, in place. */
  public interface Filler {
    /**
     * Writes up to {@code length} bytes at {@code offset} of {@code array}, which are the bytes of
     * the block from its byte {@code at} on; they never cross the end of {@code array}'s page.
     *
     * @return how many it wrote, from {@code offset} on; 0 when it has no more
     */
    int fill(int at, byte[] array, int offset, int length) throws IOException;
  }

  /**
   * Lets {@code filler} write the bytes after those that have arrived, a page at most at a time,
   * until it has no more or the block is full; readers see each part as it is written. Only the
   * block's fetcher calls it.
   *
   * @return how many bytes arrived
   */
  public int fillInPlace(Filler filler) throws IOException {
    int before = filled;
    while (filled < size) {
      int at = filled;
      byte[] page = Pages.pageOf(pages, at);
      int offset = Pages.offsetInPage(at);
      int n = filler.fill(at, page, offset, Math.min(page.length - offset, size - at));
      if (n <= 0) {
        break;
      }
      filled = at + n;
      signal();
      completeWaiters();
    }
    return filled - before;
  }

  /** How many of the block's bytes have arrived. */
  public int filled() {
    return filled;
  }

  /**
   * The block's bytes {@code [position, position + length)}, which must have arrived, as buffers
   * over its pages (not a copy). Only valid while the caller holds a pin.
   */
  List<ByteBuffer> arrived(long position, int length) {
    int from = (int) (position - range.start());
    if (from < 0 || from + length > filled) {
      throw new IllegalStateException(
          "Bytes " + position + "+" + length + " of " + range + " have not arrived");
    }
    return Pages.slices(pages, from, length);
  }

  /** Fails the block: readers waiting for bytes not yet in get {@code error}. */
  void fail(IOException error) {
    failure = error;
    signal();
    completeWaiters();
  }

  /**
   * Completes once the first {@code bytes} bytes of the block have arrived, on the thread that
   * received them, or exceptionally if the block fails first. Nobody waits on a thread.
   */
  CompletableFuture<Void> whenFilled(int bytes) {
    if (filled >= bytes) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> arrived = new CompletableFuture<>();
    lock.lock();
    try {
      waiters.add(new Waiter(bytes, arrived));
      queuedWaiters = waiters.size();
    } finally {
      lock.unlock();
    }
    completeWaiters();
    return arrived;
  }

  private void completeWaiters() {
    if (queuedWaiters == 0) {
      return;
    }
    List<Waiter> ready = new ArrayList<>();
    IOException error;
    lock.lock();
    try {
      error = failure;
      int arrived = filled;
      while (!waiters.isEmpty() && (error != null || waiters.peek().bytes() <= arrived)) {
        ready.add(waiters.poll());
      }
      queuedWaiters = waiters.size();
    } finally {
      lock.unlock();
    }
    for (Waiter waiter : ready) {
      if (waiter.bytes() <= filled) {
        waiter.arrived().complete(null);
      } else {
        waiter.arrived().completeExceptionally(error);
      }
    }
  }

  /**
   * Copies bytes that have arrived into {@code target} at {@code index}, not moving its position.
   */
  void copyArrived(long position, ByteBuffer target, int index, int length) {
    int from = (int) (position - range.start());
    if (from + length > filled) {
      throw new IllegalStateException(
          "Bytes " + position + "+" + length + " of " + range + " have not arrived");
    }
    Pages.copy(pages, from, target, index, length);
    markRead(from, from + length);
  }

  private void signal() {
    if (sleepers == 0) {
      return;
    }
    lock.lock();
    try {
      progress.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The number of bytes from {@code position} that have already arrived. */
  int availableFrom(long position) {
    return Math.max(0, filled - (int) (position - range.start()));
  }

  /**
   * Copies bytes starting at {@code position} (within this block) into {@code buffer}: as many of
   * the {@code length} asked for as have arrived, waiting up to {@code timeoutNanos} for the first.
   *
   * @return the number of bytes copied, at least 1
   */
  int copy(long position, byte[] buffer, int offset, int length, long timeoutNanos)
      throws IOException {
    int from = (int) (position - range.start());
    int arrived = filled;
    if (arrived <= from) {
      arrived = awaitBeyond(from, timeoutNanos);
    }
    int n = Math.min(length, arrived - from);
    Pages.copy(pages, from, buffer, offset, n);
    markRead(from, from + n);
    return n;
  }

  /** Whether readers have copied every byte of a prefetched block; false for other blocks. */
  boolean isFullyRead() {
    return readGranules != null && consumedTo == size && unreadBytes() == 0;
  }

  /** Bytes of a prefetched block in granules no reader touched: the over-read; 0 otherwise. */
  long unreadBytes() {
    return readGranules == null ? 0 : readGranules.unread();
  }

  private void markRead(int from, int upTo) {
    if (readGranules != null) {
      readGranules.mark(from, upTo);
    }
    WideningCredit credit = widening;
    if (credit != null && upTo > widenedFrom && WIDENING.compareAndSet(this, credit, null)) {
      credit.earn();
    }
    if (!read) {
      read = true;
    }
    if (upTo > consumedTo) {
      consumedTo = upTo;
    }
  }

  private int awaitBeyond(int from, long timeoutNanos) throws IOException {
    long remaining = timeoutNanos;
    lock.lock();
    sleepers++;
    try {
      while (filled <= from) {
        IOException error = failure;
        if (error != null) {
          throw error;
        }
        if (remaining <= 0) {
          throw new InterruptedIOException(
              "Timed out after "
                  + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                  + " ms waiting for byte "
                  + (range.start() + from)
                  + " of "
                  + key.owner().key().location());
        }
        remaining = progress.awaitNanos(remaining);
      }
      return filled;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(
              "Interrupted while waiting for " + key.owner().key().location());
      interrupted.initCause(e);
      throw interrupted;
    } finally {
      sleepers--;
      lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "Block" + range + "{filled=" + filled + ", pins=" + pins.get() + "}";
  }
}
