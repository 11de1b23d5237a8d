package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ranges one stream will read in order (predicted column chunks) that found no memory when
 * asked for ({@link ObjectReader#prefetchInTurn}). They wait here, in order of offset, and are
 * asked for again, at most {@code step} bytes at a time, each time a read of the stream enters
 * another block: that is when a block the stream has read through has given its memory back. So a
 * scan in a small memory keeps as many GETs in flight ahead of its reader as the memory holds,
 * rather than reading each chunk with a GET of its own when it gets there.
 *
 * <p>The part of a range a read has started past is dropped, and so is every range when the stream
 * closes: those bytes count as {@link Metric#PREFETCHED_BYTES_REFUSED}, and are logged at DEBUG.
 *
 * <p>Thread-safe: its lock guards the ranges and is held while the store admits them (the store's
 * plan and eviction locks are taken inside it, never the other way round). With nothing waiting, a
 * read pays one volatile read.
 */
final class WaitingPrefetches {

  private static final Logger LOG = LoggerFactory.getLogger(WaitingPrefetches.class);

  private final BlockStore store;
  private final ObjectBlocks blocks;
  private final FetchContext context;
  private final long step;
  private final TreeMap<Long, Long> ranges = new TreeMap<>(); // start to end; disjoint; guarded
  private boolean closed; // guarded by this
  private volatile boolean any;

  /**
   * Ranges of {@code blocks}' object, admitted through {@code store} at most its {@link
   * BlockStore#largestPrefetch()} at a time.
   */
  WaitingPrefetches(BlockStore store, ObjectBlocks blocks, FetchContext context) {
    this.store = store;
    this.blocks = blocks;
    this.context = context;
    this.step = store.largestPrefetch();
  }

  /** Asks for {@code range}, after the ranges already waiting: what finds no memory waits. */
  synchronized void ask(ByteRange range) throws IOException {
    if (closed) {
      return;
    }
    if (!ranges.isEmpty()) {
      // What waited before this ask is asked for again first, and counted as having waited.
      admitInOrder(true);
    }
    long start = range.start();
    long end = range.end();
    Map.Entry<Long, Long> before = ranges.floorEntry(start);
    if (before != null && before.getValue() >= start - 1) {
      start = before.getKey();
      end = Math.max(end, before.getValue());
    }
    for (Map.Entry<Long, Long> next = ranges.ceilingEntry(start);
        next != null && next.getKey() <= end + 1;
        next = ranges.higherEntry(next.getKey())) {
      end = Math.max(end, next.getValue());
    }
    ranges.subMap(start, true, end, true).clear();
    ranges.put(start, end);
    admitInOrder(false);
    Map.Entry<Long, Long> waiting = ranges.floorEntry(range.end());
    if (waiting != null && waiting.getValue() >= range.start()) {
      LOG.debug(
          "{}: no memory yet for {}: it waits for reads to free some",
          blocks.key().location(),
          range);
    }
    any = !ranges.isEmpty();
  }

  /**
   * A read at {@code position} enters another block. If it is inside a waiting range, the reader
   * has come to the bytes it waits for: what waits before {@code position} is dropped (a read
   * elsewhere, such as of the file's footer, drops nothing). Then the waiting ranges are asked for
   * in order until one finds no memory.
   */
  void readAt(long position) throws IOException {
    if (!any) {
      return;
    }
    synchronized (this) {
      Map.Entry<Long, Long> reached = ranges.floorEntry(position);
      while (reached != null && reached.getValue() >= position && ranges.firstKey() < position) {
        Map.Entry<Long, Long> head = ranges.pollFirstEntry();
        long passedEnd = Math.min(head.getValue(), position - 1);
        dropped(ByteRange.of(head.getKey(), passedEnd), "a read started past it");
        if (head.getValue() >= position) {
          ranges.put(position, head.getValue());
        }
      }
      admitInOrder(true);
      any = !ranges.isEmpty();
    }
  }

  /**
   * The stream has read {@code [start, end]} without a block of it (straight into its buffer, or a
   * vectored range): what waits of those bytes is dropped, so that it is not fetched again.
   */
  void readWithout(long start, long end) {
    if (!any) {
      return;
    }
    synchronized (this) {
      Map.Entry<Long, Long> first = ranges.floorEntry(start);
      Long from = first != null && first.getValue() >= start ? first.getKey() : start;
      // A copy: a TreeMap's entries are its nodes, which a removal may overwrite.
      for (Map.Entry<Long, Long> range :
          new TreeMap<>(ranges.subMap(from, true, end, true)).entrySet()) {
        ranges.remove(range.getKey());
        long overlapStart = Math.max(range.getKey(), start);
        long overlapEnd = Math.min(range.getValue(), end);
        if (range.getKey() < start) {
          ranges.put(range.getKey(), start - 1);
        }
        if (range.getValue() > end) {
          ranges.put(end + 1, range.getValue());
        }
        dropped(ByteRange.of(overlapStart, overlapEnd), "the stream read it without a block");
      }
      any = !ranges.isEmpty();
    }
  }

  /** Drops every waiting range, and asks for nothing more: the stream is closing. */
  synchronized void clear() {
    closed = true;
    for (Map.Entry<Long, Long> range : ranges.entrySet()) {
      dropped(ByteRange.of(range.getKey(), range.getValue()), "the stream closed");
    }
    ranges.clear();
    any = false;
  }

  private void admitInOrder(boolean waited) throws IOException {
    while (!ranges.isEmpty()) {
      Map.Entry<Long, Long> head = ranges.firstEntry();
      long start = head.getKey();
      long end = head.getValue();
      ByteRange next = ByteRange.of(start, Math.min(end, start + step - 1));
      long notAsked = store.prefetchInTurn(blocks, next, context, waited);
      ranges.remove(start);
      if (waited && notAsked > start) {
        LOG.debug(
            "{}: {} fetched after waiting for memory",
            blocks.key().location(),
            ByteRange.of(start, notAsked - 1));
      }
      if (notAsked <= end) {
        ranges.put(notAsked, end);
      }
      if (notAsked <= next.end()) {
        return;
      }
    }
  }

  private void dropped(ByteRange range, String why) {
    store.countRefused(range.length());
    LOG.debug(
        "{}: {} no longer waits for memory ({} bytes): {}; not fetched",
        blocks.key().location(),
        range,
        range.length(),
        why);
  }
}
