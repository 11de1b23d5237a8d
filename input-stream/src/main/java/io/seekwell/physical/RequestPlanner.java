package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * Decides which GETs a read needs: widens a miss to at least the read-ahead size (never past the
 * end), leaves out bytes already cached or in flight, makes each contiguous missing range one GET
 * and splits a GET longer than the target size times the tolerance ratio into as many equal parts
 * of at least the target size as fit, none longer than target times ratio. Stateless and
 * thread-safe.
 */
final class RequestPlanner {

  private final long readAheadBytes;
  private final long targetRequestSize;
  private final long unsplitLimit;

  RequestPlanner(PhysicalIOConfiguration configuration) {
    this.readAheadBytes = configuration.readAheadBytes();
    this.targetRequestSize = configuration.targetRequestSize();
    this.unsplitLimit =
        (long) (configuration.targetRequestSize() * configuration.requestToleranceRatio());
  }

  /** The bytes to have for a read of {@code [position, end]}: widened, within the object. */
  ByteRange window(long position, long end, long objectLength) {
    long widenedEnd = Math.max(end, position + readAheadBytes - 1);
    return ByteRange.of(position, Math.min(widenedEnd, objectLength - 1));
  }

  /** The GETs that fetch the bytes of {@code window} that no block in {@code existing} holds. */
  List<ByteRange> missingParts(ByteRange window, NavigableMap<Long, Block> existing) {
    List<ByteRange> parts = new ArrayList<>();
    long next = window.start();
    Long floor = existing.floorKey(window.start());
    Long from = floor != null ? floor : window.start();
    for (Block block : existing.tailMap(from, true).values()) {
      ByteRange held = block.range();
      if (held.start() > window.end()) {
        break;
      }
      if (held.end() < next) {
        continue;
      }
      if (held.start() > next) {
        split(ByteRange.of(next, held.start() - 1), parts);
      }
      next = held.end() + 1;
    }
    if (next <= window.end()) {
      split(ByteRange.of(next, window.end()), parts);
    }
    return parts;
  }

  /**
   * Splits {@code gap} when it is longer than the target times the ratio: into equal parts, as many
   * of at least the target size as fit, but enough that none is longer than target times ratio.
   */
  void split(ByteRange gap, List<ByteRange> into) {
    if (gap.length() <= unsplitLimit) {
      into.add(gap);
      return;
    }
    long count =
        Math.max(
            gap.length() / targetRequestSize, (gap.length() + unsplitLimit - 1) / unsplitLimit);
    long start = gap.start();
    for (long i = 0; i < count; i++) {
      long remainingParts = count - i;
      long size = (gap.end() - start + 1 + remainingParts - 1) / remainingParts;
      into.add(ByteRange.ofLength(start, size));
      start += size;
    }
  }
}
