package io.seekwell.physical;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The blocks of one object version, by start position, the version's ETag (pinned by the first GET
 * response when the stream was opened knowing only the length), and the lock that makes planning
 * GETs for it atomic (so concurrent readers of the same missing bytes share one GET). Per object,
 * never global. Thread-safe; the count of open streams changes only inside the {@link BlockStore}
 * index's {@code compute} (see its design notes).
 */
public final class ObjectBlocks {

  private final ObjectKey key;
  private final long length;
  private final AtomicReference<String> etag;
  private final ConcurrentSkipListMap<Long, Block> blocks = new ConcurrentSkipListMap<>();
  private final ReentrantLock planLock = new ReentrantLock();
  private volatile int openStreams;
  private volatile long pinnedNanos; // when the first response pinned the version, if it did
  private volatile boolean taughtMetadata; // the pinning response taught the metadata store

  ObjectBlocks(ObjectKey key) {
    this.key = key;
    this.length = key.length();
    this.etag = new AtomicReference<>(key.etag());
  }

  public ObjectKey key() {
    return key;
  }

  long length() {
    return length;
  }

  /** The version's ETag, or null while no GET has answered for an object opened by length. */
  String etag() {
    return etag.get();
  }

  /**
   * Pins the version to {@code responseEtag} at {@code nowNanos} if none is pinned yet. Only {@link
   * BlockStore#check} calls it, inside the index's {@code compute} for this key (see the notes of
   * {@link BlockStore}).
   *
   * @return null if this call pinned it, else the ETag pinned before
   */
  String pin(String responseEtag, long nowNanos) {
    String before = etag.compareAndExchange(null, responseEtag);
    if (before == null) {
      pinnedNanos = nowNanos;
    }
    return before;
  }

  /** When a response pinned the version of an object opened by length (meaningless otherwise). */
  long pinnedNanos() {
    return pinnedNanos;
  }

  /** Notes that the response that pinned the version taught the metadata store. */
  void taughtMetadata() {
    taughtMetadata = true;
  }

  /**
   * Whether the response that pinned the version taught the metadata store: if so, the version is
   * current only while that metadata is kept.
   */
  boolean hasTaughtMetadata() {
    return taughtMetadata;
  }

  ReentrantLock planLock() {
    return planLock;
  }

  /** The block holding {@code position}, or null. */
  Block blockAt(long position) {
    Map.Entry<Long, Block> entry = blocks.floorEntry(position);
    return entry != null && entry.getValue().range().contains(position) ? entry.getValue() : null;
  }

  /**
   * The bytes of {@code [start, end)} held by complete blocks, looked up from {@code near} and its
   * neighbours, each block pinned once into {@code pins}; null if some byte is not in a complete
   * block or more than {@code maxBlocks} blocks hold them (the pins taken stay in {@code pins}).
   */
  public List<HeldBytes> pinHeld(Block near, long start, long end, int maxBlocks, BlockPins pins) {
    List<HeldBytes> held = new ArrayList<>();
    long position = start;
    while (position < end && held.size() < maxBlocks) {
      Block holder = near.range().contains(position) ? near : blockAt(position);
      if (holder == null || !holder.isComplete() || !pins.pin(holder)) {
        return null;
      }
      int length = (int) (Math.min(end, holder.range().end() + 1) - position);
      held.add(new HeldBytes(holder, position, length));
      position += length;
    }
    return position == end ? held : null;
  }

  /** Whether a block holds any byte of {@code [start, end]}. */
  boolean holdsAny(long start, long end) {
    Map.Entry<Long, Block> last = blocks.floorEntry(end);
    return last != null && last.getValue().range().end() >= start;
  }

  /** The blocks by start position; a live view. */
  NavigableMap<Long, Block> blocks() {
    return blocks;
  }

  void add(Block block) {
    blocks.put(block.range().start(), block);
  }

  void remove(Block block) {
    blocks.remove(block.range().start(), block);
  }

  void streamOpened() {
    openStreams++;
  }

  void streamClosed() {
    openStreams--;
  }

  /** How many streams read the object now. */
  int openStreams() {
    return openStreams;
  }

  /** Whether some stream reads the object now. */
  boolean isOpen() {
    return openStreams > 0;
  }

  /** No stream reads the object and no byte of it is cached. */
  boolean isUnused() {
    return openStreams == 0 && blocks.isEmpty();
  }
}
