package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.ForwardingObjectClient;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an {@link ObjectReader} keeps and starts, on in-memory objects. */
class ObjectReaderTest {

  private static final int MIB = 1024 * 1024;
  private static final FetchContext CONTEXT = Contexts.MUTABLE;

  private static final PhysicalIOConfiguration CONFIGURATION =
      PhysicalIOConfiguration.builder()
          .maxMemoryLimit(16 * MIB)
          .maxRequestSize(8 * MIB)
          .metadataCacheSize(100)
          .readTimeout(Duration.ofMinutes(1))
          .fetchThreads(4)
          .coalesceTolerance(0)
          .build();

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final PhysicalIO physicalIO =
      new PhysicalIO(store, CONFIGURATION, new Metrics(), Ticker.system());

  /** The in-memory store, whose GETs are answered only once the test lets them. */
  private static final class HeldAnswers extends ForwardingObjectClient {
    private final CountDownLatch sent = new CountDownLatch(1);
    private final CompletableFuture<Void> answer = new CompletableFuture<>();

    HeldAnswers(ObjectClient store) {
      super(store);
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      CompletableFuture<ObjectContent> response = delegate.getObject(request);
      sent.countDown();
      return response.thenCombine(answer, (content, ignored) -> content);
    }
  }

  /**
   * The in-memory store behind an emulated far link, on a {@link ManualClock}: every GET waits 25
   * ms for its first byte and its body arrives at 90 MB/s.
   */
  private static final class FarLink extends ForwardingObjectClient {
    private static final double BYTES_PER_NANO = 90e6 / 1e9;
    private final ManualClock clock;

    FarLink(ObjectClient store, ManualClock clock) {
      super(store);
      this.clock = clock;
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      clock.advance(Duration.ofMillis(25));
      return super.getObject(request);
    }

    @Override
    protected int read(InputStream body, byte[] buffer, int offset, int length) throws IOException {
      int n = body.read(buffer, offset, length);
      clock.advance(Duration.ofNanos((long) (Math.max(n, 0) / BYTES_PER_NANO)));
      return n;
    }
  }

  @AfterEach
  void close() {
    physicalIO.close();
  }

  private ObjectReader open(String key, byte[] content) {
    ObjectLocation location = ObjectLocation.of("bucket", key);
    String etag = store.put(location, content);
    return physicalIO.open(location, ObjectMetadata.of(content.length, etag), CONTEXT);
  }

  @Test
  void idleReadersDoNotKeepEvictedBlocksReachable() throws IOException {
    List<ObjectReader> readers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      byte[] content = TestData.randomBytes(i, 4 * MIB);
      ObjectReader reader = open("object-" + i, content);
      byte[] bytes = new byte[4 * MIB];
      // Reads shorter than 1 MiB go through blocks (longer ones of an object one stream reads
      // would go straight into the buffer, and leave nothing to evict).
      for (int at = 0; at < bytes.length; at += MIB / 2) {
        assertEquals(MIB / 2, reader.read(at, bytes, at, MIB / 2));
      }
      assertArrayEquals(content, bytes);
      readers.add(reader);
    }
    long retained = readers.stream().mapToLong(ObjectReader::retainedBytes).sum();
    assertTrue(
        retained <= 16 * MIB,
        "idle readers keep " + retained + " bytes reachable; the bound is " + 16 * MIB);
    assertTrue(physicalIO.memoryUsed() <= 16 * MIB);
    readers.forEach(ObjectReader::close);
  }

  @Test
  void aReadsOwnMissCarriesWhatAFarLinkTransfersInATenthOfItsFirstByte() throws Exception {
    try (FarReader far = openFar("far", 64 * MIB, CONFIGURATION)) {
      byte[] content = far.content();
      byte[] bytes = new byte[4096];
      for (long position : new long[] {0, 8 * MIB, 8 * MIB + 200 * 1024, 16 * MIB}) {
        assertEquals(bytes.length, far.reader().read(position, bytes, 0, bytes.length));
        assertArrayEquals(
            Arrays.copyOfRange(content, (int) position, (int) position + bytes.length), bytes);
        awaitMeasured();
      }
      // The first miss knows nothing of the link: the read-ahead size. Then a tenth of 25 ms at
      // 90 MB/s is 225,000 bytes, so the read 200 KiB after the second lands in its GET.
      assertEquals(
          List.of(
              ByteRange.ofLength(0, 64 * 1024),
              ByteRange.ofLength(8 * MIB, 225_000),
              ByteRange.ofLength(16 * MIB, 225_000)),
          store.gets().stream().map(GetRequest::range).toList());
      assertEquals(2 * (225_000 - 64 * 1024), far.metrics().get(Metric.MISS_WIDENED_BYTES));
    }
  }

  @Test
  void missesStopWideningWhenTheirExtraBytesGoUnreadAndAProbeThatIsReadWinsItBack()
      throws Exception {
    try (FarReader far = openFar("far-spread", 64 * MIB, CONFIGURATION)) {
      List<Long> positions = new ArrayList<>();
      // The first miss knows nothing of the link; then the widenings the starting credit pays
      // for, none read; then misses held back until the probe of their turn.
      int misses = 1 + WideningCredit.PAYOFF + WideningCredit.PROBE_EVERY;
      for (int i = 0; i < misses; i++) {
        positions.add((long) i * MIB);
      }
      // Two reads in the probe's extra bytes (no GET; the first earns the credit, once), after
      // which misses widen again.
      long probe = (long) (misses - 1) * MIB;
      positions.add(probe + 200 * 1024);
      positions.add(probe + 210 * 1024);
      positions.add((long) misses * MIB);
      readEachAndCheck(far, positions);

      List<Long> lengths = store.gets().stream().map(get -> get.range().length()).toList();
      List<Long> expected = new ArrayList<>();
      expected.add(64L * 1024);
      expected.addAll(Collections.nCopies(WideningCredit.PAYOFF, 225_000L));
      expected.addAll(Collections.nCopies(WideningCredit.PROBE_EVERY - 1, 64L * 1024));
      expected.add(225_000L);
      expected.add(225_000L);
      assertEquals(expected, lengths);
      assertEquals(
          WideningCredit.PROBE_EVERY - 1, far.metrics().get(Metric.MISS_WIDENINGS_HELD_BACK));
      assertEquals(1, far.metrics().get(Metric.MISS_WIDENINGS_READ));
    }
  }

  @Test
  void aWidenedMissSplitAroundACachedBlockEarnsItsCreditOnce() throws Exception {
    try (FarReader far = openFar("far-split", 16 * MIB, CONFIGURATION)) {
      long cached = MIB + 100 * 1024;
      // The first miss knows nothing of the link: 64 KiB inside what the next miss widens to.
      // The next one, widened to 225,000 bytes, is then sent as the two parts around that block.
      List<Long> positions = List.of(cached, (long) MIB, MIB + 80L * 1024, MIB + 200L * 1024);
      readEachAndCheck(far, positions);

      assertEquals(
          List.of(
              ByteRange.ofLength(cached, 64 * 1024),
              ByteRange.ofLength(MIB, cached - MIB),
              ByteRange.of(cached + 64 * 1024, MIB + 225_000 - 1)),
          store.gets().stream().map(GetRequest::range).toList());
      // Reads in both parts' extra bytes; the miss took one credit and gives it back once.
      assertEquals(1, far.metrics().get(Metric.MISS_WIDENINGS_READ));
    }
  }

  /**
   * Reads 4 KiB at each of {@code positions} in turn, checking the bytes and waiting for each GET
   * to be measured before the next read.
   */
  private void readEachAndCheck(FarReader far, List<Long> positions) throws Exception {
    byte[] bytes = new byte[4096];
    for (long position : positions) {
      assertEquals(bytes.length, far.reader().read(position, bytes, 0, bytes.length));
      assertArrayEquals(
          Arrays.copyOfRange(far.content(), (int) position, (int) position + bytes.length), bytes);
      awaitMeasured();
    }
  }

  /**
   * A reader of a fresh object of {@code size} random bytes behind a {@link FarLink} whose clock
   * only the link moves, with metrics of its own.
   */
  private FarReader openFar(String key, int size, PhysicalIOConfiguration configuration) {
    byte[] content = TestData.randomBytes(key.hashCode(), size);
    ObjectLocation location = ObjectLocation.of("bucket", key);
    String etag = store.put(location, content);
    ManualClock clock = new ManualClock();
    Metrics metrics = new Metrics();
    PhysicalIO io = new PhysicalIO(new FarLink(store, clock), configuration, metrics, clock);
    try {
      ObjectMetadata metadata = ObjectMetadata.of(content.length, etag);
      return new FarReader(content, metrics, io, io.open(location, metadata, CONTEXT));
    } catch (RuntimeException e) {
      io.close();
      throw e;
    }
  }

  private record FarReader(byte[] content, Metrics metrics, PhysicalIO io, ObjectReader reader)
      implements AutoCloseable {
    @Override
    public void close() {
      try {
        reader.close();
      } finally {
        io.close();
      }
    }
  }

  /**
   * Waits until every GET's body is closed, which the fetch thread does after recording the GET in
   * the link's statistics: that may be just after the read that waited for the bytes returned.
   */
  private void awaitMeasured() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (store.openContents() > 0) {
      assertTrue(System.nanoTime() < deadline, "a GET's body was never closed");
      Thread.sleep(1);
    }
  }

  @Test
  void aWidenedMissWithNoRoomFallsBackToTheReadAheadSize() throws Exception {
    PhysicalIOConfiguration small = CONFIGURATION.toBuilder().maxMemoryLimit(128 * 1024).build();
    try (FarReader far = openFar("far-small-memory", 16 * MIB, small)) {
      byte[] content = far.content();
      ObjectReader reader = far.reader();
      byte[] bytes = new byte[4096];
      reader.read(0, bytes, 0, bytes.length);
      awaitMeasured();
      // 225,000 bytes do not fit in 128 KiB; 64 KiB do, and the read is cached rather than direct.
      assertEquals(bytes.length, reader.read(8 * MIB, bytes, 0, bytes.length));
      assertArrayEquals(Arrays.copyOfRange(content, 8 * MIB, 8 * MIB + bytes.length), bytes);
      assertEquals(
          List.of(ByteRange.ofLength(0, 64 * 1024), ByteRange.ofLength(8 * MIB, 64 * 1024)),
          store.gets().stream().map(GetRequest::range).toList());
      assertEquals(0, far.metrics().get(Metric.MISS_WIDENED_BYTES));
    }
  }

  @Test
  void aLongMissOfAnObjectNoOtherStreamReadsGoesStraightIntoTheCallersBufferOthersThroughBlocks()
      throws IOException {
    // Longer than a quarter of the memory limit (16 MiB): a scan.
    byte[] content = TestData.randomBytes(7, 12 * MIB);
    ObjectReader only = open("read-once", content);
    byte[] bytes = new byte[4 * MIB];

    assertEquals(bytes.length, only.read(MIB, bytes, 0, bytes.length));
    assertArrayEquals(Arrays.copyOfRange(content, MIB, 5 * MIB), bytes);
    assertEquals(0, physicalIO.memoryHighWaterMark(), "no block: one copy per byte");
    // Split into GETs of 1 MiB sent side by side: they take no memory.
    assertEquals(
        List.of(
            ByteRange.ofLength(MIB, MIB),
            ByteRange.ofLength(2 * MIB, MIB),
            ByteRange.ofLength(3 * MIB, MIB),
            ByteRange.ofLength(4 * MIB, MIB)),
        ranges().stream().sorted(Comparator.comparingLong(ByteRange::start)).toList());

    byte[] small = new byte[64 * 1024];
    assertEquals(small.length, only.read(6 * MIB, small, 0, small.length));
    assertArrayEquals(Arrays.copyOfRange(content, 6 * MIB, 6 * MIB + small.length), small);
    assertTrue(physicalIO.memoryHighWaterMark() > 0, "a short read is widened through a block");

    ObjectLocation location = ObjectLocation.of("bucket", "read-once");
    try (ObjectReader second =
        physicalIO.open(
            location, ObjectMetadata.of(content.length, only.etag().orElseThrow()), CONTEXT)) {
      assertEquals(bytes.length, only.read(8 * MIB, bytes, 0, bytes.length));
      assertArrayEquals(Arrays.copyOfRange(content, 8 * MIB, 12 * MIB), bytes);
      assertEquals(bytes.length, second.read(8 * MIB, bytes, 0, bytes.length));
      assertArrayEquals(Arrays.copyOfRange(content, 8 * MIB, 12 * MIB), bytes);
    }
    assertEquals(6, ranges().size(), "with a second stream open, one GET for both reads");
    assertEquals(
        ByteRange.ofLength(8 * MIB, 4 * MIB),
        ranges().get(5),
        "the bytes went into a block both streams read");
    only.close();
  }

  private List<ByteRange> ranges() {
    return store.gets().stream().map(GetRequest::range).toList();
  }

  @Test
  void aClosedReaderStartsNoGet() throws IOException {
    ObjectReader reader = open("closed", TestData.randomBytes(1, MIB));
    reader.close();
    reader.prefetch(ByteRange.of(0, MIB - 1), FetchPurpose.AHEAD);
    assertEquals(0, store.gets().size());
    assertTrue(
        reader
            .readDirect(ByteRange.of(0, 9), java.nio.ByteBuffer.allocate(10), 0)
            .isCompletedExceptionally());
    assertEquals(0, store.gets().size());
  }

  @Test
  void aReadOfBytesNoMemoryCanBeFoundForGoesStraightIntoTheCallersBuffer() throws Exception {
    byte[] content = TestData.randomBytes(3, 20 * MIB);
    ObjectReader reader = open("large", content);
    java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(18 * MIB);
    reader.readDirect(ByteRange.of(MIB, 19 * MIB - 1), direct, 0).get();
    byte[] copy = new byte[18 * MIB];
    direct.get(0, copy);
    assertArrayEquals(Arrays.copyOfRange(content, MIB, 19 * MIB), copy);
    assertEquals(0, physicalIO.memoryHighWaterMark(), "no block memory was used");
    reader.close();
  }

  @Test
  void anObjectOpenedByLengthAndInvalidatedWhileItsFirstGetWaitsIsStillRead() throws Exception {
    byte[] content = TestData.randomBytes(5, MIB);
    ObjectLocation location = ObjectLocation.of("bucket", "by-length");
    store.put(location, content);
    HeldAnswers held = new HeldAnswers(store);
    try (PhysicalIO io = new PhysicalIO(held, CONFIGURATION, new Metrics(), Ticker.system());
        ObjectReader reader = io.open(location, content.length, CONTEXT)) {
      java.nio.ByteBuffer target = java.nio.ByteBuffer.allocate(content.length);
      CompletableFuture<Void> read =
          reader.readDirect(ByteRange.of(0, content.length - 1), target, 0);
      assertTrue(held.sent.await(1, TimeUnit.MINUTES), "the GET was sent");
      // The object leaves the index before the response naming its version arrives.
      io.invalidate(location);
      held.answer.complete(null);
      read.get(1, TimeUnit.MINUTES);
      assertArrayEquals(content, target.array());
    }
  }
}
