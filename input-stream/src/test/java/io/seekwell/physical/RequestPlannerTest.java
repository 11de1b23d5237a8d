package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.object.ObjectLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RequestPlannerTest {

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;
  private static final ObjectKey OBJECT =
      new ObjectKey(new ScopedLocation(ObjectLocation.of("b", "k"), ""), "e", 1L << 30);
  private static final RequestPlanner PLANNER =
      new RequestPlanner(PhysicalIOConfiguration.DEFAULT, () -> 8L << 20, () -> 0);

  private static NavigableMap<Long, Block> blocks(ByteRange... ranges) {
    NavigableMap<Long, Block> map = new TreeMap<>();
    MemoryBudget budget =
        new MemoryBudget(Long.MAX_VALUE, new PagePool(new SharedBudget(Long.MAX_VALUE)));
    for (ByteRange range : ranges) {
      map.put(
          range.start(),
          new Block(
              new BlockKey(new ObjectBlocks(OBJECT), range.start()),
              range,
              budget.tryAllocate((int) range.length(), 0),
              budget,
              FetchPurpose.DEMAND));
    }
    return map;
  }

  @Test
  void aMissIsWidenedToTheReadAheadButNotPastTheEnd() {
    for (FetchPurpose purpose : FetchPurpose.values()) {
      assertEquals(
          ByteRange.of(100, 100 + 64 * KIB - 1), PLANNER.window(100, 100, 10 * MIB, purpose));
      assertEquals(ByteRange.of(100, 5 * MIB), PLANNER.window(100, 5 * MIB, 10 * MIB, purpose));
      assertEquals(ByteRange.of(1000, 1999), PLANNER.window(1000, 1000, 2000, purpose));
    }
  }

  @Test
  void aReadsOwnMissCarriesTheBytesTheLinkCarriesCheaplyUpToTheMissLimit() {
    long[] cheap = {225 * KIB};
    RequestPlanner planner =
        new RequestPlanner(PhysicalIOConfiguration.DEFAULT, () -> 8L << 20, () -> cheap[0]);
    assertEquals(
        ByteRange.of(100, 100 + 225 * KIB - 1),
        planner.window(100, 100, 10 * MIB, FetchPurpose.DEMAND));
    // Prefetches keep their own width: they were asked for exactly.
    assertEquals(
        ByteRange.of(100, 100 + 64 * KIB - 1),
        planner.window(100, 100, 10 * MIB, FetchPurpose.SCAN));
    assertEquals(
        ByteRange.of(100, 100 + 64 * KIB - 1),
        planner.window(100, 100, 10 * MIB, FetchPurpose.AHEAD));
    // A link whose first byte is slow widens no further than physicalio.miss.max.bytes.
    cheap[0] = 10 * MIB;
    assertEquals(
        ByteRange.of(100, 100 + 256 * KIB - 1),
        planner.window(100, 100, 10 * MIB, FetchPurpose.DEMAND));
    RequestPlanner fixed =
        new RequestPlanner(
            PhysicalIOConfiguration.builder().missMaxBytes(64 * KIB).build(),
            () -> 8L << 20,
            () -> cheap[0]);
    assertEquals(
        ByteRange.of(100, 100 + 64 * KIB - 1),
        fixed.window(100, 100, 10 * MIB, FetchPurpose.DEMAND));
    // Never past the end of a short object; the read-ahead window is the narrow one to fall back
    // to.
    assertEquals(ByteRange.of(100, 999), planner.window(100, 100, 1000, FetchPurpose.DEMAND));
    assertEquals(
        ByteRange.of(100, 100 + 64 * KIB - 1), planner.readAheadWindow(100, 100, 10 * MIB));
    // A fast one never narrows below the read-ahead, and a long read is never cut.
    cheap[0] = KIB;
    assertEquals(
        ByteRange.of(100, 100 + 64 * KIB - 1),
        planner.window(100, 100, 10 * MIB, FetchPurpose.DEMAND));
    assertEquals(
        ByteRange.of(100, 5 * MIB), planner.window(100, 5 * MIB, 10 * MIB, FetchPurpose.DEMAND));
  }

  @Test
  void cachedBytesAreLeftOutAndGapsBecomeOneGetEach() {
    NavigableMap<Long, Block> existing =
        blocks(ByteRange.of(0, 99), ByteRange.of(200, 299), ByteRange.of(300, 399));
    assertEquals(
        List.of(ByteRange.of(100, 199), ByteRange.of(400, 999)),
        PLANNER.missingParts(ByteRange.of(50, 999), existing));
    assertEquals(List.of(), PLANNER.missingParts(ByteRange.of(0, 99), existing));
    assertEquals(
        List.of(ByteRange.of(1000, 2000)),
        PLANNER.missingParts(ByteRange.of(1000, 2000), existing));
  }

  @Test
  void aReadStraightIntoItsBufferIsSplitIntoEighthsOfAtLeast1MibThatCoverItExactly() {
    long[] lengths = {1, MIB - 1, MIB, 3 * MIB / 2, 5 * MIB + 7, 8 * MIB, 8 * MIB + 3, 100 * MIB};
    for (long length : lengths) {
      ByteRange read = ByteRange.ofLength(12_345, length);
      List<ByteRange> parts = PLANNER.directParts(read, 8);
      long next = read.start();
      for (ByteRange part : parts) {
        assertEquals(next, part.start(), "contiguous: " + parts);
        assertTrue(part.length() >= Math.min(length, MIB), length + ": " + parts);
        assertTrue(part.length() <= 8 * MIB * 9 / 8, length + ": " + parts);
        next = part.end() + 1;
      }
      assertEquals(read.end() + 1, next, "exactly the read: " + parts);
      long expected = Math.max(1, Math.max(Math.min(8, length / MIB), length / (8 * MIB)));
      assertEquals(expected, parts.size(), length + ": " + parts);
    }
  }

  @Test
  void longGetsAreSplitIntoTheFewestEqualPartsNoLongerThanTargetTimesRatio() {
    // 20 MiB: two parts of 10 MiB (= 1.25 x 8 MiB) rather than three of 6.7 MiB.
    assertEquals(
        List.of(ByteRange.of(0, 10 * MIB - 1), ByteRange.of(10 * MIB, 20 * MIB - 1)),
        PLANNER.missingParts(ByteRange.of(0, 20 * MIB - 1), blocks()));
    // 124 MiB (15.5 x 8 MiB): 15 parts of about 8.3 MiB, not 16 of 7.75 MiB.
    List<ByteRange> parts = PLANNER.missingParts(ByteRange.of(0, 124 * MIB - 1), blocks());
    assertEquals(15, parts.size());
    for (ByteRange part : parts) {
      assertTrue(part.length() >= 8 * MIB && part.length() <= 10 * MIB, part::toString);
    }
    assertEquals(124 * MIB - 1, parts.get(14).end());
    // 21 MiB: two parts would exceed 10 MiB, so three of 7 MiB.
    assertEquals(3, PLANNER.missingParts(ByteRange.of(0, 21 * MIB - 1), blocks()).size());
    // Up to the tolerance (1.25 x 8 MiB) a GET is not split.
    assertEquals(1, PLANNER.missingParts(ByteRange.of(0, 10 * MIB - 1), blocks()).size());
    assertEquals(2, PLANNER.missingParts(ByteRange.of(0, 10 * MIB), blocks()).size());
  }

  @Test
  void eachPlanSplitsByTheRequestSizeOfItsTime() {
    long[] size = {8 * MIB};
    RequestPlanner planner =
        new RequestPlanner(PhysicalIOConfiguration.DEFAULT, () -> size[0], () -> 0);
    assertEquals(8, planner.missingParts(ByteRange.of(0, 64 * MIB - 1), blocks()).size());
    size[0] = 32 * MIB;
    assertEquals(
        List.of(ByteRange.of(0, 32 * MIB - 1), ByteRange.of(32 * MIB, 64 * MIB - 1)),
        planner.missingParts(ByteRange.of(0, 64 * MIB - 1), blocks()));
    // The tolerance ratio applies to the size of the time: up to 40 MiB is one GET.
    assertEquals(1, planner.missingParts(ByteRange.of(0, 40 * MIB - 1), blocks()).size());
  }

  @Property
  void partsCoverExactlyTheMissingBytes(
      @ForAll @Size(max = 6) List<@LongRange(max = 100) Long> starts,
      @ForAll @IntRange(min = 1, max = 30) int blockLength,
      @ForAll @LongRange(max = 150) long windowStart,
      @ForAll @LongRange(min = 1, max = 100) long windowLength) {
    PhysicalIOConfiguration small =
        PhysicalIOConfiguration.builder()
            .maxMemoryLimit(1 << 20)
            .readAheadBytes(1)
            .targetRequestSize(16)
            .maxRequestSize(16)
            .requestToleranceRatio(1.0)
            .metadataCacheSize(10)
            .metadataCacheTtl(java.time.Duration.ofMinutes(1))
            .readTimeout(java.time.Duration.ofMinutes(1))
            .fetchThreads(1)
            .build();
    RequestPlanner planner = new RequestPlanner(small, small::targetRequestSize, () -> 0);
    List<ByteRange> held = new ArrayList<>();
    long nextFree = 0;
    for (long start : starts.stream().sorted().toList()) {
      long s = Math.max(start, nextFree);
      held.add(ByteRange.ofLength(s, blockLength));
      nextFree = s + blockLength;
    }
    ByteRange window = ByteRange.ofLength(windowStart, windowLength);
    List<ByteRange> parts = planner.missingParts(window, blocks(held.toArray(ByteRange[]::new)));
    for (long position = window.start(); position <= window.end(); position++) {
      long p = position;
      boolean cached = held.stream().anyMatch(r -> r.contains(p));
      long covering = parts.stream().filter(r -> r.contains(p)).count();
      assertEquals(cached ? 0 : 1, covering, "position " + p);
    }
    for (ByteRange part : parts) {
      assertTrue(window.contains(part));
      assertTrue(part.length() <= 16, part::toString);
    }
  }
}
