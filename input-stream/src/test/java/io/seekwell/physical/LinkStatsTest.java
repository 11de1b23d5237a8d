package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LinkStatsTest {

  private static final long MS = 1_000_000;
  private static final long MIB = 1024 * 1024;

  @Test
  void theGapIsTimeToFirstByteTimesThroughputClamped() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    assertEquals(LinkStats.DEFAULT_GAP, stats.mergeGap());
    // 25 ms to first byte, 8 MB in 100 ms = 80 MB/s: break-even gap 2 MB.
    stats.record(25 * MS, 8_000_000, 100 * MS);
    assertEquals(2_000_000, stats.mergeGap());

    LinkStats fast = new LinkStats(8 * MIB, 64 * MIB);
    fast.record(MS / 100, 8_000_000, 8 * MS);
    assertEquals(LinkStats.MIN_GAP, fast.mergeGap());

    LinkStats slowStart = new LinkStats(8 * MIB, 64 * MIB);
    slowStart.record(2_000 * MS, 8_000_000, 10 * MS);
    assertEquals(LinkStats.MAX_GAP, slowStart.mergeGap());
  }

  @Test
  void cheapExtraBytesAreThoseATenthOfTheFirstByteTimeCarries() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    assertEquals(0, stats.cheapExtraBytes());
    // 25 ms to first byte at 90 MB/s: a tenth of it carries 225,000 bytes.
    stats.record(25 * MS, 9_000_000, 100 * MS);
    assertEquals(225_000, stats.cheapExtraBytes());
    // A small body teaches the first byte time, not the throughput.
    LinkStats small = new LinkStats(8 * MIB, 64 * MIB);
    small.record(25 * MS, 1000, MS);
    assertEquals(0, small.cheapExtraBytes());
  }

  @Test
  void smallBodiesDoNotCountForThroughput() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    stats.record(25 * MS, 1000, MS);
    assertEquals(LinkStats.DEFAULT_GAP, stats.mergeGap());
  }

  @Test
  void requestsAreSizedForAboutSixtyFourMillisecondsOfTransferOnAFastLink() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    assertEquals(8 * MIB, stats.requestSize());
    // 8 MiB in 15 ms, about 560 MB/s: 64 ms carry about 36 MB, so GETs double twice, to 32 MiB.
    stats.record(2 * MS, 8 * MIB, 15 * MS);
    assertEquals(32 * MIB, stats.requestSize());
    // Faster still: capped at the largest size.
    LinkStats faster = new LinkStats(8 * MIB, 64 * MIB);
    faster.record(MS, 8 * MIB, MS);
    assertEquals(64 * MIB, faster.requestSize());
  }

  @Test
  void aFarLinkKeepsTheTargetSize() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    // 90 MB/s per GET: 64 ms carry under 6 MB.
    stats.record(25 * MS, 9_000_000, 100 * MS);
    assertEquals(8 * MIB, stats.requestSize());
    LinkStats pinned = new LinkStats(8 * MIB, 8 * MIB);
    pinned.record(MS, 8 * MIB, MS);
    assertEquals(8 * MIB, pinned.requestSize());
  }

  @Test
  void aThroughputNearABoundaryDoesNotMakeTheSizeFlip() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    // About 540 MB/s: 64 ms carry 34.6 MB, just over 32 MiB.
    stats.record(MS, 32 * MIB, 62 * MS);
    assertEquals(32 * MIB, stats.requestSize());
    // About 450 MB/s on average: 64 ms carry under 32 MiB, but not half of it; the size stays.
    for (int i = 0; i < 30; i++) {
      stats.record(MS, 30 * MIB, 70 * MS);
    }
    assertEquals(32 * MIB, stats.requestSize());
  }

  @Test
  void theSizeFollowsTheAverageAsTheLinkSlowsDown() {
    LinkStats stats = new LinkStats(8 * MIB, 64 * MIB);
    stats.record(MS, 8 * MIB, MS);
    assertEquals(64 * MIB, stats.requestSize());
    for (int i = 0; i < 30; i++) {
      stats.record(25 * MS, 9_000_000, 100 * MS);
    }
    assertEquals(8 * MIB, stats.requestSize());
  }
}
