package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;
import io.seekwell.testing.ForwardingObjectClient;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reads no block memory can be found for: GETs of the request size, at most {@link
 * DirectRead#PARALLEL} at once, straight into the caller's buffer, ended before the read returns.
 */
class DirectReadTest {

  private static final int MIB = 1 << 20;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "row-group");

  /** Too little memory for any block (less than the read-ahead size), GETs of 1 MiB. */
  private static final PhysicalIOConfiguration NO_MEMORY =
      PhysicalIOConfiguration.builder()
          .maxMemoryLimit(32 * 1024)
          .targetRequestSize(MIB)
          .maxRequestSize(MIB)
          .fetchThreads(16)
          .readTimeout(Duration.ofMinutes(1))
          .build();

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(11, 12 * MIB);

  DirectReadTest() {
    store.put(LOCATION, content);
  }

  private PhysicalIO physicalIO(ObjectClient client) {
    return physicalIO(client, NO_MEMORY);
  }

  private final Metrics metrics = new Metrics();

  private PhysicalIO physicalIO(ObjectClient client, PhysicalIOConfiguration configuration) {
    return new PhysicalIO(
        client,
        configuration,
        DiskCacheConfiguration.OFF,
        new DiskCaches(),
        UsableSpace.FILE_STORE,
        new PagePool(new SharedBudget(NO_MEMORY.maxMemoryLimit())),
        metrics,
        Ticker.system());
  }

  /** The in-memory store, holding every GET's response until {@link #gate} completes. */
  private static final class Gated extends ForwardingObjectClient {
    final CompletableFuture<Void> gate = new CompletableFuture<>();
    final CountDownLatch arrived;
    final AtomicInteger waiting = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();
    final long failingStart;

    /** Counts {@code arrivals} down; fails at once the GET starting at {@code failingStart}. */
    Gated(ObjectClient store, int arrivals, long failingStart) {
      super(store);
      this.arrived = new CountDownLatch(arrivals);
      this.failingStart = failingStart;
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      most.accumulateAndGet(waiting.incrementAndGet(), Math::max);
      arrived.countDown();
      if (request.range().start() == failingStart) {
        waiting.decrementAndGet();
        gate.complete(null); // the others answer once this one has failed
        return CompletableFuture.failedFuture(new IOException("refused " + request.describe()));
      }
      return gate.thenCompose(ignored -> super.getObject(request))
          .whenComplete((content, failure) -> waiting.decrementAndGet());
    }
  }

  private List<ByteRange> sortedGets() {
    return store.gets().stream()
        .map(GetRequest::range)
        .sorted(Comparator.comparingLong(ByteRange::start))
        .toList();
  }

  @Test
  void aReadIsSplitIntoGetsOfTheRequestSizeThatTogetherAreExactlyTheRead() throws IOException {
    try (PhysicalIO io = physicalIO(store);
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      byte[] bytes = new byte[content.length - 5];
      assertEquals(bytes.length, reader.read(3, bytes, 0, bytes.length));
      assertArrayEquals(Arrays.copyOfRange(content, 3, content.length - 2), bytes);
      assertEquals(0, io.memoryHighWaterMark(), "no block memory was used");
    }
    List<ByteRange> gets = sortedGets();
    assertEquals(11, gets.size(), gets.toString());
    long next = 3;
    for (ByteRange get : gets) {
      assertEquals(next, get.start(), "contiguous");
      assertTrue(get.length() <= MIB * 5 / 4, get.toString());
      next = get.end() + 1;
    }
    assertEquals(content.length - 2, next, "exactly the read");
    assertEquals(1, metrics.get(Metric.DIRECT_READS_SPLIT));
    assertEquals(11, metrics.get(Metric.DEMAND_GET_REQUESTS));
    assertEquals(0, store.openContents(), "every body was closed");
  }

  @Test
  void aReadIsSplitIntoEighthsOfAtLeast1MibEvenWhenRequestsAreLonger() throws IOException {
    PhysicalIOConfiguration longRequests =
        NO_MEMORY.toBuilder().targetRequestSize(8 * MIB).maxRequestSize(8 * MIB).build();
    try (PhysicalIO io = physicalIO(store, longRequests);
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      byte[] bytes = new byte[8 * MIB];
      assertEquals(bytes.length, reader.read(MIB, bytes, 0, bytes.length));
      assertArrayEquals(Arrays.copyOfRange(content, MIB, 9 * MIB), bytes);
      byte[] short3 = new byte[3 * MIB];
      assertEquals(short3.length, reader.read(9 * MIB, short3, 0, short3.length));
      assertArrayEquals(Arrays.copyOfRange(content, 9 * MIB, 12 * MIB), short3);
    }
    List<ByteRange> gets = sortedGets();
    List<ByteRange> expected = new ArrayList<>();
    for (int i = 1; i < 12; i++) {
      expected.add(ByteRange.ofLength((long) i * MIB, MIB));
    }
    // Eight GETs of an eighth for the 8 MiB read; the 3 MiB read in parts of 1 MiB, not eighths.
    assertEquals(expected, gets);
  }

  @Test
  void aVectoredRangeIsReadByParallelGetsButNeverMoreThanTheBoundAtOnce() throws Exception {
    Gated gated = new Gated(store, DirectRead.PARALLEL, -1);
    try (PhysicalIO io = physicalIO(gated);
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      ByteBuffer direct = ByteBuffer.allocateDirect(content.length);
      CompletableFuture<Void> read =
          reader.readDirect(ByteRange.of(0, content.length - 1), direct, 0);
      assertTrue(gated.arrived.await(1, TimeUnit.MINUTES), "the first GETs were sent at once");
      gated.gate.complete(null);
      read.get(1, TimeUnit.MINUTES);
      byte[] copy = new byte[content.length];
      direct.get(0, copy);
      assertArrayEquals(content, copy);
    }
    assertEquals(12, store.gets().size());
    assertEquals(DirectRead.PARALLEL, gated.most.get(), "GETs waiting for an answer at once");
  }

  @Test
  void aFailedGetFailsTheReadSendsNoMoreAndEveryGetHasEndedWhenTheReadThrows() throws Exception {
    // One fetch thread sends the GETs in order: the first fails before the others are answered.
    Gated gated = new Gated(store, 1, 0);
    try (PhysicalIO io = physicalIO(gated, NO_MEMORY.toBuilder().fetchThreads(1).build());
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      byte[] bytes = new byte[content.length];
      IOException failure =
          assertThrows(IOException.class, () -> reader.read(0, bytes, 0, bytes.length));
      assertTrue(failure.getMessage().contains(LOCATION.toString()), failure.getMessage());
      assertEquals(0, gated.waiting.get(), "no GET is still waiting");
      assertEquals(0, store.openContents(), "no body is still being read");
    }
    assertEquals(
        DirectRead.PARALLEL - 1,
        store.gets().size(),
        "the GETs sent with the failed one, and no more after it");
  }
}
