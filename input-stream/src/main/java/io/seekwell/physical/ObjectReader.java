package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.object.ObjectChangedException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the bytes of one object version for one stream: from cached blocks where it can, planning
 * GETs through the {@link BlockStore} where it must, and straight into the caller's buffer when no
 * memory can be found or a long read of a scanned object wants no block ({@link
 * BlockStore#readsStraight}). Thread-safe: a stream may read through it from several threads
 * (Hadoop's positioned reads); its mutable state is a hint (the block read last), its closed flag
 * and its {@link WaitingPrefetches} (thread-safe on their own). After {@link #close()} it starts no
 * GET. The cache's rules are in {@link BlockStore}'s design notes.
 */
public final class ObjectReader implements AutoCloseable {

  private final BlockStore store;
  private final ObjectBlocks blocks;
  private final FetchContext context;
  private final long timeoutNanos;
  private final WaitingPrefetches waiting;
  private volatile Block current;
  private volatile boolean closed;

  ObjectReader(BlockStore store, ObjectBlocks blocks, FetchContext context, long timeoutNanos) {
    this.store = store;
    this.blocks = blocks;
    this.context = context;
    this.timeoutNanos = timeoutNanos;
    this.waiting = new WaitingPrefetches(store, blocks, context);
  }

  /** The object's length. */
  public long length() {
    return blocks.length();
  }

  /**
   * The size GETs are split into now: the target request size, or larger once GETs have shown a
   * fast link (see {@code physicalio.max.request.size}).
   */
  public long requestSize() {
    return store.requestSize();
  }

  /**
   * The largest prefetch a stream reading ahead of itself asks for at once: a sixteenth of the
   * memory limit, at least 1 MiB.
   */
  public long largestPrefetch() {
    return store.largestPrefetch();
  }

  /** The object version's ETag; empty for an object opened by length until a GET has answered. */
  public Optional<String> etag() {
    return Optional.ofNullable(blocks.etag());
  }

  /**
   * Reads {@code min(length, objectLength - position)} bytes starting at {@code position} into
   * {@code buffer}, waiting for them to arrive.
   *
   * @return the number of bytes read; 0 only if {@code length} is 0
   * @throws EOFException if {@code position} is at or past the end and {@code length > 0}
   */
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (position < 0 || position >= blocks.length()) {
      throw new EOFException(
          "Position "
              + position
              + " is outside "
              + describe()
              + " of "
              + blocks.length()
              + " bytes");
    }
    long end = Math.min(position + length, blocks.length()) - 1;
    int total = 0;
    while (position + total <= end) {
      long at = position + total;
      int wanted = (int) (end - at + 1);
      Block block = pinnedBlockAt(at);
      if (block == null) {
        if (store.readsStraight(blocks, at, end)
            || !store.fetch(blocks, at, end, context, FetchPurpose.DEMAND)) {
          waiting.readWithout(at, end);
          readDirect(at, buffer, offset + total, wanted);
          return total + wanted;
        }
        continue;
      }
      try {
        int copied = block.copy(at, buffer, offset + total, wanted, timeoutNanos);
        total += copied;
        if (at + copied > block.range().end()) {
          store.readThrough(block);
        }
      } catch (ObjectChangedException e) {
        current = null;
        throw e;
      } finally {
        block.unpin();
      }
    }
    return total;
  }

  /**
   * Starts GETs for the bytes of {@code range} not cached or in flight, for {@code purpose} (not
   * {@link FetchPurpose#DEMAND}), without waiting for them.
   *
   * @return false if memory could not be found for the first missing bytes
   */
  public boolean prefetch(ByteRange range, FetchPurpose purpose) throws IOException {
    if (closed || range.start() >= blocks.length()) {
      return true;
    }
    Block block = blocks.blockAt(range.start());
    if (block != null && block.range().end() >= range.end()) {
      return true;
    }
    long start = block == null ? range.start() : block.range().end() + 1;
    return store.fetch(blocks, start, Math.min(range.end(), blocks.length() - 1), context, purpose);
  }

  /**
   * Starts GETs for the bytes of {@code range} not cached or in flight, which this stream will read
   * once, in order (predicted column chunks: {@link FetchPurpose#SCAN}), without waiting for them.
   * What finds no memory waits, after what already waits, and is asked for again as this stream's
   * reads move on and free memory ({@link WaitingPrefetches}), at most {@link #largestPrefetch()}
   * at a time.
   */
  public void prefetchInTurn(ByteRange range) throws IOException {
    if (closed || range.start() >= blocks.length()) {
      return;
    }
    waiting.ask(ByteRange.of(range.start(), Math.min(range.end(), blocks.length() - 1)));
  }

  /**
   * Copies the bytes of {@code range} into {@code target} at {@code index} once they have arrived,
   * without blocking a thread: the copy runs on the thread that receives the last of them. The
   * bytes must be cached or in flight (see {@link #prefetch}); if some are neither, returns null
   * and the caller reads them itself. Fails with an {@link java.io.InterruptedIOException} if the
   * bytes have not arrived within the read timeout; the blocks are released either way.
   */
  public CompletableFuture<Void> copyWhenArrived(ByteRange range, ByteBuffer target, int index) {
    List<Block> covering = new ArrayList<>();
    long next = range.start();
    while (next <= range.end()) {
      Block block = blocks.blockAt(next);
      if (block == null || !block.tryPin()) {
        covering.forEach(Block::unpin);
        return null;
      }
      covering.add(block);
      next = block.range().end() + 1;
    }
    CompletableFuture<?>[] arrivals = new CompletableFuture<?>[covering.size()];
    for (int i = 0; i < arrivals.length; i++) {
      Block block = covering.get(i);
      long lastNeeded = Math.min(block.range().end(), range.end());
      arrivals[i] = block.whenFilled((int) (lastNeeded - block.range().start() + 1));
    }
    return CompletableFuture.allOf(arrivals)
        .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
        .exceptionallyCompose(failure -> CompletableFuture.failedFuture(timedOut(range, failure)))
        .whenComplete(
            (ignored, failure) -> {
              try {
                if (failure == null) {
                  for (Block block : covering) {
                    long from = Math.max(block.range().start(), range.start());
                    long to = Math.min(block.range().end(), range.end());
                    block.copyArrived(
                        from, target, index + (int) (from - range.start()), (int) (to - from + 1));
                    if (to == block.range().end()) {
                      store.readThrough(block);
                    }
                  }
                }
              } finally {
                covering.forEach(Block::unpin);
              }
            });
  }

  /**
   * Reads {@code range} into {@code target} at {@code index} without blocking a thread: the bytes
   * cached or in flight are copied once they arrive (as {@link #copyWhenArrived}), and the bytes
   * between them are read straight into {@code target} (as {@link #readDirect(ByteRange,
   * ByteBuffer, int)}), so no byte already fetched is fetched again. Completes once every part has
   * ended, exceptionally if one failed.
   */
  public CompletableFuture<Void> readInto(ByteRange range, ByteBuffer target, int index) {
    waiting.readWithout(range.start(), range.end());
    List<CompletableFuture<Void>> parts = new ArrayList<>();
    long next = range.start();
    while (next <= range.end()) {
      Block block = blocks.blockAt(next);
      int at = index + (int) (next - range.start());
      CompletableFuture<Void> copied = null;
      long to;
      if (block != null) {
        to = Math.min(block.range().end(), range.end());
        copied = copyWhenArrived(ByteRange.of(next, to), target, at);
      } else {
        Long following = blocks.blocks().higherKey(next);
        to = following == null ? range.end() : Math.min(following - 1, range.end());
      }
      parts.add(copied != null ? copied : readDirect(ByteRange.of(next, to), target, at));
      next = to + 1;
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture<?>[]::new));
  }

  /** How many bytes from {@code position} on can be read without waiting. */
  public int availableFrom(long position) {
    Block block = blocks.blockAt(position);
    return block == null ? 0 : block.availableFrom(position);
  }

  private Block pinnedBlockAt(long position) throws IOException {
    Block block = current;
    if (block == null || !block.range().contains(position)) {
      waiting.readAt(position);
      block = blocks.blockAt(position);
      if (block == null) {
        return null;
      }
      store.touch(block);
    }
    if (!block.tryPin()) {
      current = null;
      return null;
    }
    current = block;
    return block;
  }

  /**
   * Reads {@code [position, position + length)} straight into {@code buffer}, bypassing the cache
   * (see {@link DirectRead}), and waits for every GET it sent: each has its own deadlines (the read
   * timeout for its response, the object client's for its body), and none may write into the buffer
   * once the caller has it back.
   */
  private void readDirect(long position, byte[] buffer, int offset, int length) throws IOException {
    CompletableFuture<Void> read =
        readDirect(ByteRange.ofLength(position, length), ByteBuffer.wrap(buffer), offset);
    try {
      read.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("Interrupted while reading " + describe());
      interrupted.initCause(e);
      throw interrupted;
    } catch (ExecutionException e) {
      throw Futures.asIoException(e);
    }
  }

  /**
   * Reads {@code range} straight into {@code target} at {@code index}, bypassing the cache: for
   * bytes no memory could be found for, or that no block should hold. GETs of at most the request
   * size, a few at a time on the fetch threads ({@link DirectRead}); the future completes once
   * every one of them has ended. The caller's buffer holds the bytes, so they count against no
   * budget.
   */
  public CompletableFuture<Void> readDirect(ByteRange range, ByteBuffer target, int index) {
    if (closed) {
      return CompletableFuture.failedFuture(new IOException(describe() + ": the reader is closed"));
    }
    return DirectRead.start(store, blocks, context, range, target, index);
  }

  private InterruptedIOException timedOut(ByteRange range, Throwable failure) {
    Throwable cause = Futures.unwrap(failure);
    if (!(cause instanceof TimeoutException)) {
      throw new CompletionException(cause);
    }
    InterruptedIOException error =
        new InterruptedIOException(
            describe()
                + " "
                + range
                + ": the bytes did not arrive within "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                + " ms");
    error.initCause(cause);
    return error;
  }

  /** Bytes of block memory this reader keeps reachable outside the cache; for tests. */
  long retainedBytes() {
    Block block = current;
    return block == null ? 0 : block.heldBytes();
  }

  private String describe() {
    return blocks.key().location().toString();
  }

  /**
   * Releases the hold on the object and, if no stream has it open, drops its cached blocks: what
   * was prefetched for a reader that will never read leaves the cache, its unread bytes counted as
   * {@code PREFETCHED_BYTES_UNUSED}.
   */
  public void discard() {
    if (!closed) {
      closed = true;
      current = null;
      waiting.clear();
      store.discard(blocks);
    }
  }

  /** Releases the stream's hold on the object; cached blocks stay for other streams. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      current = null;
      waiting.clear();
      store.release(blocks);
    }
  }
}
