package io.seekwell.logical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.StructureReadahead.Start;
import io.seekwell.logical.testing.RecordingPrefetcher;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read-ahead window both format plug-ins use, over a structure of bytes 0 to 9999. */
class StructureReadaheadTest {

  private static final long STRUCTURE_END = 10_000;

  private final RecordingPrefetcher prefetcher = RecordingPrefetcher.ofLength("s3://b/k", 20_000);

  private StructureReadahead window(long gap, Start start, boolean cold) {
    return new StructureReadahead(prefetcher, () -> gap, start, end -> cold ? STRUCTURE_END : -1);
  }

  @Test
  void readsFollowingOnExactlyAreReadAheadOfToTheStructuresEndInContiguousWindows() {
    StructureReadahead window = window(0, Start.FIRST_FOLLOWING_READ, true);

    for (long at = 0; at < STRUCTURE_END; at += 100) {
      window.onRead(at, at + 100);
    }

    // The second read starts the run: twice its length from its end, then growing.
    List<ByteRange> ahead = prefetcher.prefetched;
    assertEquals(ByteRange.of(200, 399), ahead.get(0));
    for (int i = 1; i < ahead.size(); i++) {
      assertEquals(ahead.get(i - 1).end() + 1, ahead.get(i).start(), "contiguous: " + ahead);
    }
    assertEquals(STRUCTURE_END - 1, ahead.get(ahead.size() - 1).end());
    assertTrue(ahead.size() <= 8, ahead.size() + " windows for 100 reads");
  }

  @Test
  void theWindowIsAtMostTwiceWhatTheRunHasReadAndFourRequests() {
    StructureReadahead window = window(0, Start.FIRST_FOLLOWING_READ, true);
    prefetcher.requestSize = 500;

    // A reader that leaves after three reads of 100 leaves at most twice what the run read unread.
    reads(window, 0, 100, 100, 200, 200, 300);
    assertEquals(List.of(ByteRange.of(200, 399), ByteRange.of(400, 699)), prefetcher.prefetched);

    // A long run is never more than four requests (2,000 bytes) ahead of its reader.
    for (long at = 300; at < 9_000; at += 100) {
      window.onRead(at, at + 100);
      long asked = prefetcher.prefetched.get(prefetcher.prefetched.size() - 1).end() + 1;
      assertTrue(asked - (at + 100) <= 2_000, "asked up to " + asked + " after a read to " + at);
    }
  }

  @Test
  void withAGapOfZeroAReadThatSkipsEndsTheRunAndStartsNone() {
    StructureReadahead window = window(0, Start.FIRST_FOLLOWING_READ, true);

    reads(window, 0, 100, 150, 250, 300, 400);

    assertEquals(List.of(), prefetcher.prefetched);
  }

  @Test
  void withAGapReadsSkippingUpToItFollowAndTheFirstStepSetsTheWindow() {
    StructureReadahead window = window(100, Start.FIRST_FOLLOWING_READ, true);

    reads(window, 0, 100, 150, 250, 2_000, 2_100);

    // The step of 50 and the read of 100: a window of 300 from the read's end; the far read ends
    // the run.
    assertEquals(List.of(ByteRange.of(250, 549)), prefetcher.prefetched);
  }

  @Test
  void theRunStopsAtTheStructuresEnd() {
    StructureReadahead window = window(0, Start.FIRST_FOLLOWING_READ, true);

    for (long at = 9_000; at < STRUCTURE_END; at += 400) {
      window.onRead(at, Math.min(at + 400, STRUCTURE_END));
    }

    assertEquals(ByteRange.of(9_800, 9_999), prefetcher.prefetched.get(0));
    assertEquals(1, prefetcher.prefetched.size());
  }

  @Test
  void predictedBytesAreNotReadAhead() {
    StructureReadahead window = window(0, Start.ANY_FOLLOWING_READ, false);

    for (long at = 0; at < 1_000; at += 100) {
      window.onRead(at, at + 100);
    }

    assertEquals(List.of(), prefetcher.prefetched);
  }

  @Test
  void aRunRefusedMemoryStaysWithoutReadAheadOnlyWhenItStartsOncePerRun() {
    readsRefusedThenGranted(window(0, Start.FIRST_FOLLOWING_READ, true));
    assertEquals(List.of(), prefetcher.prefetched);

    readsRefusedThenGranted(window(0, Start.ANY_FOLLOWING_READ, true));
    assertEquals(List.of(ByteRange.of(300, 499)), prefetcher.prefetched);
  }

  /** Two reads, the second starting a run no memory is found for, then a third with memory. */
  private void readsRefusedThenGranted(StructureReadahead window) {
    prefetcher.refusing = true;
    reads(window, 0, 100, 100, 200);
    prefetcher.refusing = false;
    reads(window, 200, 300);
  }

  /** Reads each pair of {@code bounds}: from the first byte to the second (exclusive). */
  private static void reads(StructureReadahead window, long... bounds) {
    for (int i = 0; i < bounds.length; i += 2) {
      window.onRead(bounds[i], bounds[i + 1]);
    }
  }

  @Test
  void aSkippedReadIsFollowedButNotActedOnAndAResetFollowsNothing() {
    StructureReadahead window = window(0, Start.FIRST_FOLLOWING_READ, true);

    window.skipped(100);
    reads(window, 100, 200);
    window.reset();
    reads(window, 200, 300, 300, 400);

    // After the reset, a new run: its window starts again at twice the read.
    assertEquals(List.of(ByteRange.of(200, 399), ByteRange.of(400, 599)), prefetcher.prefetched);
  }
}
