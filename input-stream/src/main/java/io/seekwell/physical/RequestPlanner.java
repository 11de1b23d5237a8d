package io.seekwell.physical;

import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.function.LongSupplier;

/**
 * Decides which GETs a read needs: widens a miss to at least the read-ahead size (never past the
 * end), and a read's own miss further, up to {@code physicalio.miss.max.bytes}, to the bytes the
 * link carries cheaply (see {@link LinkStats#cheapExtraBytes}); leaves out bytes already cached or
 * in flight, makes each contiguous missing range one GET and splits a GET longer than the request
 * size times the tolerance ratio into as many equal parts of at least the request size as fit, none
 * longer than the size times the ratio. The request size is the one the link's statistics give at
 * the time of planning. Thread-safe.
 */
final class RequestPlanner {

  /**
   * The smallest part {@link #directParts} splits a read into: the time to first byte dominates.
   */
  static final long SMALLEST_DIRECT_PART = 1L << 20;

  private final long readAheadBytes;
  private final long missMaxBytes;
  private final double toleranceRatio;
  private final LongSupplier requestSize;
  private final LongSupplier cheapExtraBytes;

  /**
   * A planner whose GETs are split by the size {@code requestSize} gives when a read is planned,
   * and whose reads' own misses are widened to what {@code cheapExtraBytes} gives then, within the
   * bounds above.
   */
  RequestPlanner(
      PhysicalIOConfiguration configuration,
      LongSupplier requestSize,
      LongSupplier cheapExtraBytes) {
    this.readAheadBytes = configuration.readAheadBytes();
    this.missMaxBytes = configuration.missMaxBytes();
    this.toleranceRatio = configuration.requestToleranceRatio();
    this.requestSize = requestSize;
    this.cheapExtraBytes = cheapExtraBytes;
  }

  /**
   * The bytes to have for a read of {@code [position, end]} fetched for {@code purpose}: widened,
   * within the object.
   */
  ByteRange window(long position, long end, long objectLength, FetchPurpose purpose) {
    long width = readAheadBytes;
    if (purpose == FetchPurpose.DEMAND) {
      long cheap = cheapExtraBytes.getAsLong();
      width = Math.max(width, Math.min(cheap, missMaxBytes));
    }
    return widened(position, end, objectLength, width);
  }

  /**
   * The bytes to have for a read of {@code [position, end]}, widened to the read-ahead size only.
   */
  ByteRange readAheadWindow(long position, long end, long objectLength) {
    return widened(position, end, objectLength, readAheadBytes);
  }

  private static ByteRange widened(long position, long end, long objectLength, long width) {
    long widenedEnd = Math.max(end, position + width - 1);
    return ByteRange.of(position, Math.min(widenedEnd, objectLength - 1));
  }

  /**
   * The GETs of a read straight into its caller's buffer: they take no block memory, so they are
   * split finer than the request size, so that a long read's GETs run side by side rather than as
   * one. Equal parts, as many as {@code parallel} parts of at least {@link #SMALLEST_DIRECT_PART}
   * fit (one if none does), or more for a read longer than {@code parallel} request sizes, so that
   * none is much longer than the request size.
   */
  List<ByteRange> directParts(ByteRange range, int parallel) {
    long length = range.length();
    long count =
        Math.max(
            Math.min(parallel, length / SMALLEST_DIRECT_PART),
            length / Math.max(SMALLEST_DIRECT_PART, requestSize.getAsLong()));
    return equalParts(range, Math.max(1, count));
  }

  /** The GETs that fetch the bytes of {@code window} that no block in {@code existing} holds. */
  List<ByteRange> missingParts(ByteRange window, NavigableMap<Long, Block> existing) {
    List<ByteRange> parts = new ArrayList<>();
    long size = requestSize.getAsLong();
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
        split(ByteRange.of(next, held.start() - 1), size, parts);
      }
      next = held.end() + 1;
    }
    if (next <= window.end()) {
      split(ByteRange.of(next, window.end()), size, parts);
    }
    return parts;
  }

  /**
   * Splits {@code gap} when it is longer than {@code size} times the ratio: into equal parts, as
   * many of at least {@code size} as fit, but enough that none is longer than size times ratio.
   */
  private void split(ByteRange gap, long size, List<ByteRange> into) {
    long unsplitLimit = (long) (size * toleranceRatio);
    if (gap.length() <= unsplitLimit) {
      into.add(gap);
      return;
    }
    long count = Math.max(gap.length() / size, (gap.length() + unsplitLimit - 1) / unsplitLimit);
    into.addAll(equalParts(gap, count));
  }

  /** {@code range} in {@code count} parts whose lengths differ by at most one byte. */
  private static List<ByteRange> equalParts(ByteRange range, long count) {
    List<ByteRange> parts = new ArrayList<>();
    long start = range.start();
    for (long i = 0; i < count; i++) {
      long remainingParts = count - i;
      long part = (range.end() - start + 1 + remainingParts - 1) / remainingParts;
      parts.add(ByteRange.ofLength(start, part));
      start += part;
    }
    return parts;
  }
}
