package io.seekwell.logical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.testing.RecordingPrefetcher;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequentialReadaheadTest {

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  private static RecordingPrefetcher recorder(long length) {
    return RecordingPrefetcher.ofLength("s3://bucket/test", length);
  }

  /** The first byte after the last prefetch. */
  private static long frontier(RecordingPrefetcher recorder) {
    List<ByteRange> prefetched = recorder.prefetched;
    return prefetched.isEmpty() ? 0 : prefetched.get(prefetched.size() - 1).end() + 1;
  }

  private static SequentialReadahead readahead(RecordingPrefetcher recorder, boolean eager) {
    return new SequentialReadahead(recorder, 2 * MIB, 128 * MIB, eager);
  }

  @Test
  void aSequentialScanIsCoveredOnceInGrowingRequestsThatStayAheadOfTheReader() throws IOException {
    long length = 256 * MIB;
    RecordingPrefetcher recorder = recorder(length);
    SequentialReadahead readahead = readahead(recorder, false);
    for (long position = 0; position < length; position += 64 * KIB) {
      readahead.beforeRead(position, 64 * KIB);
      long readEnd = position + 64 * KIB;
      assertTrue(frontier(recorder) >= readEnd, "the read at " + position + " is covered");
      if (readEnd < length - 8 * MIB) {
        assertTrue(
            frontier(recorder) - readEnd >= MIB, "requests stay ahead of the read at " + position);
      }
    }
    List<ByteRange> requests = recorder.prefetched;
    assertTrue(requests.size() <= 256 / 8 + 3, requests.size() + " requests");
    assertEquals(ByteRange.ofLength(0, 2 * MIB), requests.get(0));
    assertEquals(ByteRange.ofLength(2 * MIB, 4 * MIB), requests.get(1));
    long next = 0;
    for (ByteRange request : requests) {
      assertEquals(next, request.start(), "contiguous, no overlap");
      assertTrue(request.length() <= 8 * MIB);
      next = request.end() + 1;
    }
    assertEquals(length, next, "exactly the whole object, never past its end");
  }

  @Test
  void aRandomReadCollapsesTheWindowAndTwoSequentialReadsReopenIt() throws IOException {
    RecordingPrefetcher recorder = recorder(100 * MIB);
    SequentialReadahead readahead = readahead(recorder, false);
    readahead.beforeRead(0, 1000);
    assertEquals(1, recorder.prefetched.size());
    readahead.beforeRead(50 * MIB, 1000);
    readahead.beforeRead(20 * MIB, 1000);
    assertEquals(1, recorder.prefetched.size(), "random reads get no read-ahead");
    readahead.beforeRead(20 * MIB + 1000, 1000);
    assertEquals(ByteRange.ofLength(20 * MIB + 1000, 2 * MIB), recorder.prefetched.get(1));
  }

  @Test
  void withoutAHintOnlyAReadAtTheStartOrAContinuationStartsTheWindow() throws IOException {
    RecordingPrefetcher lazy = recorder(10 * MIB);
    readahead(lazy, false).beforeRead(5 * MIB, 100);
    assertEquals(List.of(), lazy.prefetched);
    RecordingPrefetcher eager = recorder(10 * MIB);
    readahead(eager, true).beforeRead(5 * MIB, 100);
    assertEquals(List.of(ByteRange.ofLength(5 * MIB, 2 * MIB)), eager.prefetched);
  }

  @Test
  void aRefusedRequestStopsTheTopUpUntilThereIsRoom() throws IOException {
    RecordingPrefetcher recorder = recorder(100 * MIB);
    SequentialReadahead readahead = readahead(recorder, true);
    recorder.refusing = true;
    readahead.beforeRead(0, 64 * KIB);
    assertEquals(List.of(), recorder.prefetched);
    recorder.refusing = false;
    readahead.beforeRead(64 * KIB, 64 * KIB);
    assertEquals(ByteRange.ofLength(64 * KIB, 2 * MIB), recorder.prefetched.get(0));
  }

  @Test
  void aRefusedRequestIsAskedAgainSmallerDownToTheInitialSizeBeforeTheTopUpStops()
      throws IOException {
    long length = 256 * MIB;
    RecordingPrefetcher recorder = recorder(length);
    SequentialReadahead readahead = readahead(recorder, true);
    long position = 0;
    for (; position < 32 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
    }
    assertEquals(8 * MIB, recorder.prefetched.get(recorder.prefetched.size() - 1).length());
    int before = recorder.prefetched.size();
    // Memory is short: only requests of up to 3 MiB still fit.
    recorder.refusingAbove = 3 * MIB;
    for (; position < 96 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
      assertTrue(frontier(recorder) > position + MIB, "read-ahead goes on at " + position);
    }
    List<ByteRange> later = recorder.prefetched.subList(before, recorder.prefetched.size());
    assertTrue(later.stream().allMatch(range -> range.length() == 2 * MIB), later.toString());
    // Not even the initial size fits: the top-up stops, nothing is recorded.
    recorder.refusingAbove = MIB;
    int stopped = recorder.prefetched.size();
    for (long end = frontier(recorder); position < end + 16 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
    }
    assertEquals(stopped, recorder.prefetched.size());
  }

  @Test
  void requestsGrowToTheRequestSizeThePrefetcherGivesAtTheTime() throws IOException {
    long length = 1024 * MIB;
    RecordingPrefetcher recorder = recorder(length);
    SequentialReadahead readahead = readahead(recorder, true);
    long position = 0;
    for (; position < 64 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
    }
    assertTrue(recorder.prefetched.stream().allMatch(range -> range.length() <= 8 * MIB));
    int before = recorder.prefetched.size();
    // GETs have shown a fast link: the store now splits GETs into 32 MiB.
    recorder.requestSize = 32 * MIB;
    for (; position < 512 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
    }
    List<ByteRange> later = recorder.prefetched.subList(before, recorder.prefetched.size());
    assertTrue(later.stream().allMatch(range -> range.length() <= 32 * MIB), later.toString());
    assertEquals(32 * MIB, later.get(later.size() - 1).length(), later.toString());
  }

  @Test
  void theWindowNeverGrowsPastItsMaximum() throws IOException {
    long length = 1024 * MIB;
    RecordingPrefetcher recorder = recorder(length);
    SequentialReadahead readahead = new SequentialReadahead(recorder, 2 * MIB, 16 * MIB, true);
    for (long position = 0; position < 512 * MIB; position += MIB) {
      readahead.beforeRead(position, MIB);
      assertTrue(
          frontier(recorder) - (position + MIB) <= 16 * MIB + 8 * MIB,
          "ahead of " + position + ": " + (frontier(recorder) - position));
    }
  }

  @Test
  void aFullWindowIsToppedUpAsSoonAsARequestFitsSoNearlyAllOfItIsInFlight() throws IOException {
    long length = 1024 * MIB;
    RecordingPrefetcher recorder = recorder(length);
    recorder.requestSize = MIB;
    SequentialReadahead readahead = new SequentialReadahead(recorder, MIB, 14 * MIB, true);
    for (long position = 0; position < 512 * MIB; position += 64 * KIB) {
      readahead.beforeRead(position, 64 * KIB);
      long ahead = frontier(recorder) - (position + 64 * KIB);
      assertTrue(ahead <= 14 * MIB, "ahead of " + position + ": " + ahead);
      if (position >= 64 * MIB) {
        // Topped up only at half the window, as little as 7 MiB would be ahead.
        assertTrue(ahead >= 13 * MIB - 64 * KIB, "ahead of " + position + ": " + ahead);
      }
    }
  }
}
