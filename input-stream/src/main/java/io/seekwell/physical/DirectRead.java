package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Futures;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A read straight into the caller's buffer, without a block (no block memory was found for it, or
 * it is a long read of a scanned object, see {@link BlockStore#readsStraight}): GETs of an eighth
 * of the read, but at least 1 MiB and about the request size at most ({@link
 * RequestPlanner#directParts}), at most {@link #PARALLEL} in flight at once on the fetch threads,
 * each writing its own slice of the buffer. So a read of a whole column chunk or row group costs
 * the time of parallel GETs, not of one serial GET of it. The caller's buffer holds the bytes, so
 * they count against no budget.
 *
 * <p>Completes once every GET sent has ended, so that none writes into the buffer after the caller
 * has its answer; after a failure no further GET is sent, and the read fails with the first failure
 * (which names the object and its range). Thread-safe: its counts are changed under its monitor,
 * and GETs are sent outside it.
 */
final class DirectRead {

  /** The most GETs one direct read sends at once. */
  static final int PARALLEL = 8;

  /** The scratch size for copying into a buffer without an array. */
  private static final int CHUNK = 64 * 1024;

  private final BlockStore store;
  private final ObjectBlocks blocks;
  private final FetchContext context;
  private final ByteRange range;
  private final ByteBuffer target;
  private final int index;
  private final Deque<ByteRange> waiting;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private int running;
  private Throwable failure;

  private DirectRead(
      BlockStore store,
      ObjectBlocks blocks,
      FetchContext context,
      ByteRange range,
      ByteBuffer target,
      int index) {
    this.store = store;
    this.blocks = blocks;
    this.context = context;
    this.range = range;
    this.target = target;
    this.index = index;
    this.waiting = new ArrayDeque<>(store.directParts(blocks, range));
  }

  /**
   * Reads {@code range} of {@code blocks}' version into {@code target} at {@code index} (its
   * position unchanged), through {@code store}'s GETs.
   */
  static CompletableFuture<Void> start(
      BlockStore store,
      ObjectBlocks blocks,
      FetchContext context,
      ByteRange range,
      ByteBuffer target,
      int index) {
    DirectRead read = new DirectRead(store, blocks, context, range, target, index);
    List<ByteRange> first;
    synchronized (read) {
      first = read.take(PARALLEL);
    }
    first.forEach(read::send);
    return read.done;
  }

  /** Takes up to {@code most} parts to send, counting them as running; under the monitor. */
  private List<ByteRange> take(int most) {
    List<ByteRange> parts = new ArrayList<>();
    while (parts.size() < most && failure == null && !waiting.isEmpty()) {
      parts.add(waiting.poll());
    }
    running += parts.size();
    return parts;
  }

  private void send(ByteRange part) {
    store.countDemandGet();
    store
        .getAsync(blocks, part, context, body -> receive(body, part))
        .whenComplete((ignored, error) -> ended(error));
  }

  private void ended(Throwable error) {
    List<ByteRange> next;
    boolean last;
    synchronized (this) {
      running--;
      if (error != null && failure == null) {
        failure = Futures.unwrap(error);
      }
      next = take(1);
      last = running == 0;
    }
    next.forEach(this::send);
    if (last) {
      if (failure == null) {
        done.complete(null);
      } else {
        done.completeExceptionally(failure);
      }
    }
  }

  private void receive(InputStream body, ByteRange part) throws IOException {
    int at = index + (int) (part.start() - range.start());
    if (target.hasArray()) {
      readFully(body, part, target.array(), target.arrayOffset() + at);
      return;
    }
    byte[] chunk = new byte[(int) Math.min(part.length(), CHUNK)];
    for (long done = 0; done < part.length(); ) {
      int n = (int) Math.min(chunk.length, part.length() - done);
      readFully(body, ByteRange.ofLength(part.start() + done, n), chunk, 0);
      target.put(at + (int) done, chunk, 0, n);
      done += n;
    }
  }

  private void readFully(InputStream body, ByteRange bytes, byte[] buffer, int offset)
      throws IOException {
    int length = (int) bytes.length();
    int n = body.readNBytes(buffer, offset, length);
    if (n < length) {
      throw new EOFException(
          "GET "
              + blocks.key().location()
              + " "
              + bytes
              + " ended after "
              + n
              + " of "
              + length
              + " bytes");
    }
  }
}
