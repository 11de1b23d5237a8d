package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VectoredReadTest {

  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ControllableObjectClient controllable = new ControllableObjectClient(store);
  private final S3SeekableInputStreamFactory factory =
      new S3SeekableInputStreamFactory(controllable, S3SeekableInputStreamConfiguration.DEFAULT);

  @AfterEach
  void close() {
    factory.close();
  }

  private byte[] put(String key, int length) {
    byte[] content = TestData.randomBytes(key.hashCode(), length);
    store.put(ObjectLocation.of("bucket", key), content);
    return content;
  }

  private static void assertBytes(byte[] content, ObjectRange range) throws Exception {
    ByteBuffer buffer = range.getByteBuffer().get(30, TimeUnit.SECONDS);
    assertEquals(range.getLength(), buffer.remaining());
    int from = (int) range.getOffset();
    ByteBuffer expected = ByteBuffer.wrap(content, from, range.getLength());
    assertEquals(expected, buffer, range::toString);
  }

  @Test
  void rangesCloseTogetherAreMergedHoweverLongTheRunGrows() {
    List<ByteRange> merged =
        ByteRanges.coalesce(
            List.of(
                ByteRange.of(0, 99),
                ByteRange.of(1000, 1099),
                ByteRange.of(3 * MIB, 3 * MIB + 99),
                ByteRange.of(3 * MIB + 200, 11 * MIB),
                ByteRange.of(11 * MIB + 1, 30 * MIB),
                ByteRange.of(32 * MIB, 40 * MIB)),
            MIB);
    assertEquals(
        List.of(
            ByteRange.of(0, 1099),
            ByteRange.of(3 * MIB, 30 * MIB),
            ByteRange.of(32 * MIB, 40 * MIB)),
        merged);
  }

  @Test
  void adjacentLongRangesAreSplitIntoEqualGetsAcrossRangeBoundaries() throws Exception {
    // Five adjacent 6 MiB chunks, as the column chunks of a row group: one 30 MiB run, fetched as
    // three equal GETs of 10 MiB rather than five of 6 MiB. Ranges straddle the GET boundaries.
    byte[] content = put("row-group.bin", 31 * MIB);
    List<ObjectRange> ranges = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ranges.add(ObjectRange.of(MIB + (long) i * 6 * MIB, 6 * MIB));
    }
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "row-group.bin"))) {
      stream.readVectored(ranges, ByteBuffer::allocate, buffer -> {});
      for (ObjectRange range : ranges) {
        assertBytes(content, range);
      }
    }
    List<ByteRange> fetched =
        store.gets().stream()
            .map(GetRequest::range)
            .sorted(Comparator.comparingLong(ByteRange::start))
            .toList();
    long part = 30L * MIB / 3;
    List<ByteRange> expected = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      expected.add(ByteRange.ofLength(MIB + i * part, part));
    }
    assertEquals(expected, fetched);
  }

  @Test
  void tenThousandSmallRangesCompleteWithFewGetsAndBoundedThreads() throws Exception {
    int count = 10_000;
    byte[] content = put("many.bin", count * 8 * KIB);
    List<ObjectRange> ranges = new ArrayList<>();
    for (int i = count - 1; i >= 0; i--) {
      ranges.add(ObjectRange.of((long) i * 8 * KIB, 4 * KIB));
    }
    int threadsBefore = Thread.activeCount();
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "many.bin"))) {
      stream.readVectored(
          ranges,
          length ->
              length % 2 == 0 ? ByteBuffer.allocate(length) : ByteBuffer.allocateDirect(length),
          buffer -> {});
      CompletableFuture.allOf(
              ranges.stream().map(ObjectRange::getByteBuffer).toArray(CompletableFuture[]::new))
          .get(60, TimeUnit.SECONDS);
      for (ObjectRange range : ranges) {
        assertBytes(content, range);
      }
    }
    // 80 MiB of ranges 4 KiB apart: one run, split into nine GETs of 8.9 MiB. No thread per range:
    // at most
    // the
    // factory's 64 fetch threads (and a few of the JVM's) were added.
    List<GetRequest> gets = store.gets();
    assertEquals(9, gets.size(), gets::toString);
    assertTrue(
        Thread.activeCount() <= threadsBefore + 64 + 4, () -> Thread.activeCount() + " threads");
  }

  @Test
  void heapBuffersWithAnOffsetAndDirectBuffersGetPositionAndLimit() throws Exception {
    byte[] content = put("buffers.bin", 2 * MIB);
    List<ObjectRange> ranges =
        List.of(ObjectRange.of(10, 100), ObjectRange.of(MIB, 5000), ObjectRange.of(MIB + 9000, 7));
    List<Integer> calls = new ArrayList<>();
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "buffers.bin"))) {
      stream.readVectored(
          ranges,
          length -> {
            calls.add(length);
            return calls.size() == 2
                ? ByteBuffer.allocateDirect(length + 16).position(16)
                : ByteBuffer.wrap(new byte[length + 40], 13, length + 20).slice().position(5);
          },
          buffer -> {});
      for (ObjectRange range : ranges) {
        assertBytes(content, range);
      }
    }
    assertTrue(ranges.get(1).getByteBuffer().get().isDirect());
    assertEquals(16, ranges.get(1).getByteBuffer().get().position());
    assertEquals(5, ranges.get(0).getByteBuffer().get().position());
  }

  @Test
  void aFailingRangeFailsAloneAndItsBufferIsReleased() throws Exception {
    byte[] content = put("partial.bin", 40 * MIB);
    controllable.failGetsOver(
        20 * MIB + 10,
        new ObjectStoreException("GET failed", 500, "InternalError", "r", false, null));
    List<ObjectRange> ranges =
        List.of(
            ObjectRange.of(MIB, 1000),
            ObjectRange.of(20 * MIB, 1000),
            ObjectRange.of(35 * MIB, 1000));
    List<ByteBuffer> released = new ArrayList<>();
    // By identity: a buffer's equals and hashCode follow its remaining bytes, which the read moves.
    Set<ByteBuffer> handedOut =
        Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "partial.bin"))) {
      stream.readVectored(
          ranges,
          length -> {
            ByteBuffer buffer = ByteBuffer.allocate(length);
            handedOut.add(buffer);
            return buffer;
          },
          released::add);
      assertBytes(content, ranges.get(0));
      assertBytes(content, ranges.get(2));
      ExecutionException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class,
              () -> ranges.get(1).getByteBuffer().get(30, TimeUnit.SECONDS));
      assertInstanceOf(ObjectStoreException.class, e.getCause());
    }
    assertEquals(1, released.size());
    assertTrue(handedOut.contains(released.get(0)));
  }

  private S3SeekableInputStreamFactory factory(long memoryLimit, Duration readTimeout) {
    return new S3SeekableInputStreamFactory(
        controllable,
        S3SeekableInputStreamConfiguration.builder()
            .physicalIO(
                PhysicalIOConfiguration.builder()
                    .maxMemoryLimit(memoryLimit)
                    .maxRequestSize(8 * MIB)
                    .metadataCacheSize(100)
                    .readTimeout(readTimeout)
                    .fetchThreads(8)
                    .build())
            .logicalIO(LogicalIOConfiguration.OFF)
            .build());
  }

  @Test
  void aVectoredReadThatTimesOutReleasesItsBlocks() throws Exception {
    put("slow.bin", 4 * MIB);
    controllable.stallBodiesAfter(1000);
    S3SeekableInputStreamFactory timing = factory(16 * MIB, Duration.ofMillis(300));
    try (timing;
        S3SeekableInputStream stream = timing.createStream(S3URI.of("bucket", "slow.bin"))) {
      ObjectRange range = new ObjectRange(new CompletableFuture<>(), 100_000, 500_000);
      stream.readVectored(List.of(range), ByteBuffer::allocate, buffer -> {});
      ExecutionException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> range.getByteBuffer().get(30, TimeUnit.SECONDS));
      assertInstanceOf(InterruptedIOException.class, e.getCause());
      assertTrue(e.getCause().getMessage().contains("did not arrive within 300 ms"), e::toString);
    }
    assertEquals(0, timing.getMemoryUsage().used(), "no block stays pinned after close");
  }

  @Test
  void aRangeReachingPastTheEndOfTheLargestOffsetFailsWithEof() throws Exception {
    byte[] content = put("end.bin", 1000);
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "end.bin"))) {
      ObjectRange past = new ObjectRange(new CompletableFuture<>(), Long.MAX_VALUE - 5, 10);
      ObjectRange inside = new ObjectRange(new CompletableFuture<>(), 10, 100);
      stream.readVectored(List.of(inside, past), ByteBuffer::allocate, buffer -> {});
      ExecutionException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> past.getByteBuffer().get(10, TimeUnit.SECONDS));
      assertInstanceOf(java.io.EOFException.class, e.getCause());
      assertBytes(content, inside);
    }
  }

  @Test
  void rangesNoMemoryCanBeFoundForAreReadOffTheCallersThread() throws Exception {
    byte[] content = put("big.bin", 8 * MIB);
    S3SeekableInputStreamFactory tight = factory(64 * KIB, Duration.ofMinutes(1));
    controllable.hangGets(ObjectLocation.of("bucket", "big.bin"));
    try (tight;
        S3SeekableInputStream stream = tight.createStream(S3URI.of("bucket", "big.bin"))) {
      List<ObjectRange> ranges = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ranges.add(new ObjectRange(new CompletableFuture<>(), i * 3L * MIB, 2 * MIB));
      }
      stream.readVectored(ranges, ByteBuffer::allocateDirect, buffer -> {});
      assertTrue(
          ranges.stream().noneMatch(range -> range.getByteBuffer().isDone()),
          "readVectored returned before the GETs answered");
      controllable.releaseHungGets();
      for (ObjectRange range : ranges) {
        assertBytes(content, range);
      }
      assertTrue(tight.getMemoryUsage().highWaterMark() <= 64 * KIB);
    }
  }
}
