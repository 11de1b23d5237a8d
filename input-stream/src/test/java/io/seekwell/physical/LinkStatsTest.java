package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LinkStatsTest {

  private static final long MS = 1_000_000;

  @Test
  void theGapIsTimeToFirstByteTimesThroughputClamped() {
    LinkStats stats = new LinkStats();
    assertEquals(LinkStats.DEFAULT_GAP, stats.mergeGap());
    // 25 ms to first byte, 8 MB in 100 ms = 80 MB/s: break-even gap 2 MB.
    stats.record(25 * MS, 8_000_000, 100 * MS);
    assertEquals(2_000_000, stats.mergeGap());

    LinkStats fast = new LinkStats();
    fast.record(MS / 100, 8_000_000, 8 * MS);
    assertEquals(LinkStats.MIN_GAP, fast.mergeGap());

    LinkStats slowStart = new LinkStats();
    slowStart.record(2_000 * MS, 8_000_000, 10 * MS);
    assertEquals(LinkStats.MAX_GAP, slowStart.mergeGap());
  }

  @Test
  void smallBodiesDoNotCountForThroughput() {
    LinkStats stats = new LinkStats();
    stats.record(25 * MS, 1000, MS);
    assertEquals(LinkStats.DEFAULT_GAP, stats.mergeGap());
  }
}
