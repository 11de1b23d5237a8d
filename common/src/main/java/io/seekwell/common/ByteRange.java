package io.seekwell.common;

import java.util.Optional;

/**
 * An inclusive range of byte positions {@code [start, end]} within an object. Immutable and
 * thread-safe.
 *
 * <p>Both ends are inclusive, as in an HTTP {@code Range: bytes=start-end} header, so a range
 * always covers at least one byte and an open-ended range cannot be expressed.
 */
public record ByteRange(long start, long end) implements Comparable<ByteRange> {

  /**
   * Creates a range.
   *
   * @throws IllegalArgumentException if {@code start < 0} or {@code end < start}
   */
  public ByteRange {
    if (start < 0) {
      throw new IllegalArgumentException("Range start must be >= 0, was " + start);
    }
    if (end < start) {
      throw new IllegalArgumentException(
          "Range end must be >= start, was [" + start + ", " + end + "]");
    }
  }

  /** The range {@code [start, end]} (both inclusive). */
  public static ByteRange of(long start, long end) {
    return new ByteRange(start, end);
  }

  /**
   * The range of {@code length} bytes beginning at {@code start}.
   *
   * @throws IllegalArgumentException if {@code start < 0} or {@code length < 1}
   */
  public static ByteRange ofLength(long start, long length) {
    if (length < 1) {
      throw new IllegalArgumentException("Range length must be >= 1, was " + length);
    }
    return new ByteRange(start, Math.addExact(start, length - 1));
  }

  /** The number of bytes in this range, at least 1. */
  public long length() {
    return end - start + 1;
  }

  /** Whether {@code position} lies within this range. */
  public boolean contains(long position) {
    return position >= start && position <= end;
  }

  /** Whether every byte of {@code other} lies within this range. */
  public boolean contains(ByteRange other) {
    return other.start >= start && other.end <= end;
  }

  /** Whether this range and {@code other} share at least one byte. */
  public boolean overlaps(ByteRange other) {
    return start <= other.end && other.start <= end;
  }

  /** Whether the two ranges overlap or touch, so that their union is one range. */
  public boolean isAdjacentOrOverlapping(ByteRange other) {
    return start <= other.end + 1 && other.start <= end + 1;
  }

  /** The number of bytes strictly between two disjoint ranges; 0 if they touch or overlap. */
  public long gapTo(ByteRange other) {
    if (isAdjacentOrOverlapping(other)) {
      return 0;
    }
    return other.start > end ? other.start - end - 1 : start - other.end - 1;
  }

  /** The smallest range that covers both this range and {@code other}. */
  public ByteRange span(ByteRange other) {
    return new ByteRange(Math.min(start, other.start), Math.max(end, other.end));
  }

  /** The bytes this range shares with {@code other}; empty if they are disjoint. */
  public Optional<ByteRange> intersection(ByteRange other) {
    return overlaps(other)
        ? Optional.of(new ByteRange(Math.max(start, other.start), Math.min(end, other.end)))
        : Optional.empty();
  }

  /**
   * The part of this range that starts at {@code position}.
   *
   * @throws IllegalArgumentException if {@code position} is not within this range
   */
  public ByteRange suffixFrom(long position) {
    if (!contains(position)) {
      throw new IllegalArgumentException(position + " is not within " + this);
    }
    return new ByteRange(position, end);
  }

  /** This range with its end lowered to {@code maxEnd} if it reaches past it. */
  public ByteRange clampEnd(long maxEnd) {
    return end <= maxEnd ? this : new ByteRange(start, maxEnd);
  }

  /** The value of an HTTP {@code Range} header for this range, e.g. {@code bytes=0-99}. */
  public String toHttpRange() {
    return "bytes=" + start + "-" + end;
  }

  @Override
  public int compareTo(ByteRange other) {
    int byStart = Long.compare(start, other.start);
    return byStart != 0 ? byStart : Long.compare(end, other.end);
  }

  @Override
  public String toString() {
    return "[" + start + "-" + end + "]";
  }
}
