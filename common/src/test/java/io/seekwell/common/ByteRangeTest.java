package io.seekwell.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ByteRangeTest {

  @Test
  void rejectsNegativeStart() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(-1, 10));
    assertEquals("Range start must be >= 0, was -1", e.getMessage());
  }

  @Test
  void rejectsEndBeforeStart() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ByteRange.of(10, 9));
    assertEquals("Range end must be >= start, was [10, 9]", e.getMessage());
  }

  @Test
  void rejectsEmptyLength() {
    assertThrows(IllegalArgumentException.class, () -> ByteRange.ofLength(5, 0));
  }

  @Test
  void singleByteRangeHasLengthOne() {
    ByteRange range = ByteRange.of(7, 7);
    assertEquals(1, range.length());
    assertEquals("bytes=7-7", range.toHttpRange());
    assertEquals(range, ByteRange.ofLength(7, 1));
  }

  @Test
  void containsAndOverlaps() {
    ByteRange range = ByteRange.of(10, 19);
    assertTrue(range.contains(10));
    assertTrue(range.contains(19));
    assertFalse(range.contains(20));
    assertTrue(range.contains(ByteRange.of(12, 19)));
    assertFalse(range.contains(ByteRange.of(12, 20)));
    assertTrue(range.overlaps(ByteRange.of(19, 30)));
    assertFalse(range.overlaps(ByteRange.of(20, 30)));
    assertTrue(range.isAdjacentOrOverlapping(ByteRange.of(20, 30)));
    assertFalse(range.isAdjacentOrOverlapping(ByteRange.of(21, 30)));
  }

  @Test
  void gapSpanIntersection() {
    ByteRange a = ByteRange.of(0, 9);
    ByteRange b = ByteRange.of(15, 20);
    assertEquals(5, a.gapTo(b));
    assertEquals(5, b.gapTo(a));
    assertEquals(0, a.gapTo(ByteRange.of(10, 12)));
    assertEquals(ByteRange.of(0, 20), a.span(b));
    assertEquals(Optional.empty(), a.intersection(b));
    assertEquals(Optional.of(ByteRange.of(5, 9)), a.intersection(ByteRange.of(5, 30)));
  }

  @Test
  void suffixAndClamp() {
    ByteRange range = ByteRange.of(100, 199);
    assertEquals(ByteRange.of(150, 199), range.suffixFrom(150));
    assertThrows(IllegalArgumentException.class, () -> range.suffixFrom(200));
    assertEquals(ByteRange.of(100, 120), range.clampEnd(120));
    assertEquals(range, range.clampEnd(500));
  }

  @Property
  void gapIsTheNumberOfBytesBetweenTwoRanges(
      @ForAll @LongRange(max = 1000) long s1,
      @ForAll @LongRange(max = 100) long len1,
      @ForAll @LongRange(max = 1000) long s2,
      @ForAll @LongRange(max = 100) long len2) {
    ByteRange a = ByteRange.ofLength(s1, len1 + 1);
    ByteRange b = ByteRange.ofLength(s2, len2 + 1);
    long bytesInSpan = a.span(b).length();
    long union = a.length() + b.length() - a.intersection(b).map(ByteRange::length).orElse(0L);
    assertEquals(bytesInSpan - union, a.gapTo(b));
    assertEquals(a.gapTo(b), b.gapTo(a));
    assertEquals(a.overlaps(b), a.intersection(b).isPresent());
  }
}
