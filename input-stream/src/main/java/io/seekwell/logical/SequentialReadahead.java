package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;

/**
 * A sliding read-ahead window for sequential reads. While reads follow each other, it keeps
 * requests in flight ahead of the reader and tops the window up as soon as less than half of it, or
 * room for a whole request, is left (the low-water mark), so the pipeline never drains and a full
 * window keeps nearly all of itself in flight. Requests grow from the initial size up to the
 * prefetcher's request size at the time; the window doubles with each top-up up to its maximum,
 * which requests past the end of the read never pass. A read that does not continue where the last
 * one ended collapses the window. Never asks past the end of the object. A request refused by the
 * memory bound (which read-ahead never evicts unread bytes for) halves the request size and the
 * window, down to the initial request size, and is asked again; refused at that size, it stops the
 * top-up. Not thread-safe: one stream owns it.
 */
public final class SequentialReadahead implements ReadStrategy {

  private final Prefetcher prefetcher;
  private final long initialSize;
  private final long maxWindow;
  private final boolean startAtFirstRead;
  private long expectedNext = 0;
  private long frontier = -1;
  private long window;
  private long nextRequestSize;
  private boolean firstRead = true;

  /**
   * Read-ahead for one stream.
   *
   * @param startAtFirstRead whether the first read, wherever it is, starts the window (the caller
   *     said the stream is sequential); otherwise only a read at 0 or a read that continues the
   *     previous one does
   */
  public SequentialReadahead(
      Prefetcher prefetcher, long initialSize, long maxWindow, boolean startAtFirstRead) {
    this.prefetcher = prefetcher;
    this.initialSize = initialSize;
    this.maxWindow = Math.max(initialSize, maxWindow);
    this.startAtFirstRead = startAtFirstRead;
  }

  @Override
  public void beforeRead(long position, long length) throws IOException {
    boolean sequential = position == expectedNext || (firstRead && startAtFirstRead);
    firstRead = false;
    long end = Math.min(position + Math.max(length, 1), prefetcher.objectLength());
    expectedNext = position + length;
    if (!sequential) {
      window = 0;
      frontier = -1;
      return;
    }
    if (window == 0) {
      window = initialSize;
      nextRequestSize = Math.min(initialSize, prefetcher.requestSize());
      frontier = position;
    }
    if (frontier < end) {
      frontier = position;
    }
    if (frontier - end < Math.max(window / 2, window - nextRequestSize)) {
      topUp(position, end);
    }
  }

  private void topUp(long readerStart, long readerEnd) throws IOException {
    long target = Math.min(prefetcher.objectLength(), Math.max(readerEnd, readerStart + window));
    boolean issued = false;
    while (frontier < target) {
      long size = Math.min(nextRequestSize, prefetcher.objectLength() - frontier);
      if (frontier >= readerEnd && frontier + size > readerStart + maxWindow) {
        break;
      }
      if (!prefetcher.prefetchOnce(ByteRange.ofLength(frontier, size))) {
        if (!shrink()) {
          break;
        }
        target = Math.min(target, Math.max(readerEnd, readerStart + window));
        continue;
      }
      frontier += size;
      nextRequestSize = Math.min(nextRequestSize * 2, prefetcher.requestSize());
      issued = true;
    }
    if (issued) {
      window = Math.min(window * 2, maxWindow);
    }
  }

  /**
   * Halves the request size and the window after a request found no memory, down to the initial
   * request size.
   *
   * @return false if requests were already as small as they get
   */
  private boolean shrink() {
    long smallest = Math.min(initialSize, prefetcher.requestSize());
    if (nextRequestSize <= smallest) {
      return false;
    }
    nextRequestSize = Math.max(smallest, nextRequestSize / 2);
    window = Math.max(initialSize, window / 2);
    return true;
  }
}
