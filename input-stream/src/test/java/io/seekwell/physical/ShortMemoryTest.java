package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Reads when memory is short. Predicted ranges larger than the memory limit wait and are fetched,
 * in order, as the stream's reads free memory ({@link WaitingPrefetches}), so every byte is fetched
 * once and ahead of its read; small reads find a block in the readers' reserve; a vectored range
 * partly cached reads only the rest from the store ({@link ObjectReader#readInto}).
 */
class ShortMemoryTest {

  private static final int MIB = 1 << 20;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "table.parquet");

  /** 8 MiB of memory: prefetches of at most 1 MiB at a time; GETs of 1 MiB. */
  private static final PhysicalIOConfiguration SMALL_MEMORY =
      PhysicalIOConfiguration.builder()
          .maxMemoryLimit(8 * MIB)
          .targetRequestSize(MIB)
          .maxRequestSize(MIB)
          .readTimeout(Duration.ofMinutes(1))
          .build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(5, 32 * MIB);

  ShortMemoryTest() {
    store.put(LOCATION, content);
  }

  private PhysicalIO physicalIO() {
    return physicalIO(SMALL_MEMORY.maxMemoryLimit());
  }

  /** Physical IO with the factory's limit of 8 MiB, in a JVM whose budget is {@code jvmLimit}. */
  private PhysicalIO physicalIO(long jvmLimit) {
    return new PhysicalIO(
        store,
        SMALL_MEMORY,
        DiskCacheConfiguration.OFF,
        new DiskCaches(),
        UsableSpace.FILE_STORE,
        new PagePool(new SharedBudget(jvmLimit)),
        metrics,
        Ticker.system());
  }

  private long bytesFetched() {
    return store.gets().stream().mapToLong(get -> get.range().length()).sum();
  }

  @Test
  void aRunFourTimesTheMemoryIsFetchedInTurnAheadOfItsReaderEachByteOnce() throws IOException {
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetchInTurn(ByteRange.of(0, content.length - 1));
      assertEquals(
          7L * MIB,
          metrics.get(Metric.PREFETCHED_BYTES),
          "what memory holds at once, less the readers' reserve of 1 MiB");

      byte[] read = new byte[content.length];
      int buffer = 64 * 1024;
      for (int at = 0; at < content.length; at += buffer) {
        assertEquals(buffer, reader.read(at, read, at, buffer));
      }
      assertArrayEquals(content, read);
      assertTrue(io.memoryHighWaterMark() <= SMALL_MEMORY.maxMemoryLimit());
    }
    assertEquals(32, store.gets().size(), "one GET per prefetch step");
    assertEquals(content.length, bytesFetched(), "no byte twice");
    assertEquals(0, metrics.get(Metric.DEMAND_GET_REQUESTS), "every byte arrived ahead");
    assertEquals(32L * MIB, metrics.get(Metric.PREFETCHED_BYTES));
    assertEquals(25L * MIB, metrics.get(Metric.PREFETCHED_BYTES_WAITED));
    assertEquals(0, metrics.get(Metric.PREFETCHED_BYTES_REFUSED));
  }

  @Test
  void aParsersOneByteReadsFindABlockWhileWhatWaitsFillsTheRestOfMemory() throws IOException {
    parsersOneByteReadsAreOneGet(SMALL_MEMORY.maxMemoryLimit());
  }

  @Test
  void theReadersReserveHoldsWhenTheJvmsBudgetIsSmallerThanTheFactorysLimit() throws IOException {
    parsersOneByteReadsAreOneGet(6 * MIB);
  }

  private void parsersOneByteReadsAreOneGet(long jvmLimit) throws IOException {
    int footer = content.length - 100_000;
    try (PhysicalIO io = physicalIO(jvmLimit);
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetchInTurn(ByteRange.of(0, content.length - 1));
      byte[] one = new byte[1];
      for (int at = footer; at < footer + 10_000; at++) {
        assertEquals(1, reader.read(at, one, 0, 1));
        assertEquals(content[at], one[0], "byte " + at);
      }
      assertTrue(io.memoryHighWaterMark() <= SMALL_MEMORY.maxMemoryLimit());
    }
    // Without the reserve, memory is full of prefetched bytes nobody has read, and each one-byte
    // read is a GET of its own: 10,000 of them.
    assertEquals(1, metrics.get(Metric.DEMAND_GET_REQUESTS), "one block for the parser's reads");
    assertEquals(
        Math.min(jvmLimit, SMALL_MEMORY.maxMemoryLimit()) - MIB,
        metrics.get(Metric.PREFETCHED_BYTES),
        "prefetches left the reserve of 1 MiB");
  }

  @Test
  void waitingBytesTheStreamReadsWithoutABlockAreNotFetchedAgain() throws IOException {
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetchInTurn(ByteRange.of(0, 24L * MIB - 1));
      // [7 MiB, 12 MiB) waits; a read of it long enough goes straight into its buffer.
      byte[] bytes = new byte[12 * MIB];
      assertEquals(5 * MIB, reader.read(7L * MIB, bytes, 7 * MIB, 5 * MIB));
      // Reading [0, 7 MiB) frees memory for what still waits, [12 MiB, 24 MiB).
      for (int at = 0; at < 7 * MIB; at += 64 * 1024) {
        assertEquals(64 * 1024, reader.read(at, bytes, at, 64 * 1024));
      }
      assertArrayEquals(Arrays.copyOfRange(content, 0, 12 * MIB), bytes);
    }
    long fetchedTwice =
        store.gets().stream()
            .map(GetRequest::range)
            .filter(range -> range.start() >= 7L * MIB && range.end() < 12L * MIB)
            .mapToLong(ByteRange::length)
            .sum();
    assertEquals(5L * MIB, fetchedTwice, "[7 MiB, 12 MiB) was fetched once, by the read");
    assertEquals(5L * MIB, metrics.get(Metric.DIRECT_READ_BYTES));
  }

  @Test
  void aVectoredRangeOverSeveralWaitingRangesDropsEachOfThem() throws Exception {
    int quarter = MIB / 4;
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetchInTurn(ByteRange.of(0, 7L * MIB - 1));
      // Five ranges wait, at 10, 12, 14, 16 and 18 MiB, of 1 to 5 quarter MiB.
      for (int i = 0; i < 5; i++) {
        reader.prefetchInTurn(ByteRange.ofLength((10L + 2 * i) * MIB, (i + 1L) * quarter));
      }
      // The read covers the last four.
      ByteBuffer target = ByteBuffer.allocate(9 * MIB);
      reader.readInto(ByteRange.ofLength(11L * MIB, 9 * MIB), target, 0).get(1, TimeUnit.MINUTES);
      assertArrayEquals(Arrays.copyOfRange(content, 11 * MIB, 20 * MIB), target.array());
      assertEquals(14L * quarter, metrics.get(Metric.PREFETCHED_BYTES_REFUSED), "2 + 3 + 4 + 5");
    }
    assertEquals(15L * quarter, metrics.get(Metric.PREFETCHED_BYTES_REFUSED), "the first at close");
  }

  @Test
  void aReadElsewhereKeepsWhatWaitsAndAReadInsideItDropsWhatWaitsBeforeIt() throws IOException {
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetchInTurn(ByteRange.of(0, 24L * MIB - 1));
      byte[] bytes = new byte[MIB];

      // The tail (a footer) is outside what waits: nothing is dropped.
      reader.read(content.length - MIB, bytes, 0, MIB);
      assertArrayEquals(Arrays.copyOfRange(content, content.length - MIB, content.length), bytes);
      assertEquals(0, metrics.get(Metric.PREFETCHED_BYTES_REFUSED));

      // A read at 20 MiB has passed [7 MiB, 20 MiB), which waited: dropped, never fetched. The
      // read, of 1 MiB of an object longer than a quarter of the limit, goes straight into its
      // buffer, and drops the 1 MiB of it that waited too.
      reader.read(20L * MIB, bytes, 0, MIB);
      assertArrayEquals(Arrays.copyOfRange(content, 20 * MIB, 21 * MIB), bytes);
      assertEquals(14L * MIB, metrics.get(Metric.PREFETCHED_BYTES_REFUSED));
    }
    // Closing dropped what still waited, [21 MiB, 24 MiB).
    assertEquals(17L * MIB, metrics.get(Metric.PREFETCHED_BYTES_REFUSED));
    assertEquals(0, metrics.get(Metric.PREFETCHED_BYTES_WAITED));
    assertEquals(7L * MIB, metrics.get(Metric.PREFETCHED_BYTES));
    assertEquals(2, metrics.get(Metric.DEMAND_GET_REQUESTS));
    for (GetRequest get : store.gets()) {
      assertTrue(get.range().end() < 7L * MIB || get.range().start() >= 20L * MIB, get.describe());
    }
  }

  @Test
  void aVectoredRangePartlyCachedTakesThoseBytesFromTheBlocksAndOnlyTheRestFromTheStore()
      throws Exception {
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetch(ByteRange.of(0, 6L * MIB - 1), FetchPurpose.SCAN);
      ByteBuffer target = ByteBuffer.allocate(20 * MIB);
      reader.readInto(ByteRange.ofLength(MIB, 20 * MIB), target, 0).get(1, TimeUnit.MINUTES);
      assertArrayEquals(Arrays.copyOfRange(content, MIB, 21 * MIB), target.array());
    }
    assertEquals(21L * MIB, bytesFetched(), "the cached 5 MiB were not fetched again");
    assertEquals(0, store.openContents(), "every body was closed");
  }
}
