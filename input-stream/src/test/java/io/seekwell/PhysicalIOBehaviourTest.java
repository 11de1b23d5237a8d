package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Caching, request shaping, concurrency and memory of the physical IO, on in-memory objects, with
 * read-ahead off so that every GET is one a read asked for.
 */
class PhysicalIOBehaviourTest {

  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ControllableObjectClient controllable = new ControllableObjectClient(store);
  private S3SeekableInputStreamFactory factory;

  private final ManualClock clock = new ManualClock();

  private S3SeekableInputStreamFactory factory(PhysicalIOConfiguration physicalIO) {
    factory =
        new S3SeekableInputStreamFactory(
            controllable,
            S3SeekableInputStreamConfiguration.builder()
                .physicalIO(physicalIO)
                .logicalIO(LogicalIOConfiguration.OFF)
                .build(),
            new DiskCacheScope(),
            clock,
            clock);
    return factory;
  }

  private byte[] put(String key, int length, long seed) {
    byte[] content = TestData.randomBytes(seed, length);
    store.put(ObjectLocation.of("bucket", key), content);
    return content;
  }

  @AfterEach
  void closeFactory() {
    if (factory != null) {
      factory.close();
    }
  }

  @Test
  void knownMetadataMeansNoHead() throws IOException {
    put("a", 1000, 1);
    factory(PhysicalIOConfiguration.DEFAULT);
    OpenStreamInformation known =
        OpenStreamInformation.builder().objectMetadata(ObjectMetadata.of(1000, "\"v1\"")).build();
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"), known)) {
      assertEquals(1000, stream.length());
      stream.read();
    }
    assertEquals(0, factory.getMetrics().get(Metric.HEAD_REQUESTS));
    assertEquals(0, store.heads().size());
  }

  @Test
  void secondStreamReadsCachedBytesWithoutRequests() throws IOException {
    byte[] content = put("a", 300_000, 2);
    factory(PhysicalIOConfiguration.DEFAULT);
    byte[] first = new byte[100_000];
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      stream.readFully(1000, first, 0, first.length);
    }
    long gets = factory.getMetrics().get(Metric.GET_REQUESTS);
    byte[] second = new byte[100_000];
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      stream.readFully(1000, second, 0, second.length);
    }
    assertArrayEquals(Arrays.copyOfRange(content, 1000, 101_000), second);
    assertEquals(1, factory.getMetrics().get(Metric.HEAD_REQUESTS));
    assertEquals(gets, factory.getMetrics().get(Metric.GET_REQUESTS));
  }

  @Test
  void aOneByteReadIsOneGetOf64KiB() throws IOException {
    put("a", 10 * MIB, 3);
    factory(PhysicalIOConfiguration.DEFAULT);
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      stream.seek(5 * MIB);
      stream.read();
    }
    assertEquals(
        List.of(ByteRange.ofLength(5 * MIB, 64 * KIB)),
        store.gets().stream().map(GetRequest::range).toList());
  }

  @Test
  void readFullyOf20MiBIsTwoGetsOf10MiB() throws IOException {
    byte[] content = put("a", 30 * MIB, 4);
    factory(PhysicalIOConfiguration.DEFAULT);
    byte[] buffer = new byte[20 * MIB];
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      stream.readFully(MIB, buffer, 0, buffer.length);
    }
    assertArrayEquals(Arrays.copyOfRange(content, MIB, 21 * MIB), buffer);
    List<GetRequest> gets = store.gets();
    assertEquals(2, gets.size(), gets::toString);
    for (GetRequest get : gets) {
      assertEquals(10 * MIB, get.range().length(), get::toString);
      assertEquals("\"v1\"", get.etag().orElseThrow());
    }
  }

  @Test
  void bytesAreReadableAsTheyArrive() throws Exception {
    byte[] content = put("a", 16 * MIB, 11);
    factory(PhysicalIOConfiguration.DEFAULT);
    controllable.stallBodiesAfter(MIB);
    S3SeekableInputStream whole = factory.createStream(S3URI.of("bucket", "a"));
    CompletableFuture<Void> wholeRead = startReading(whole, 8 * MIB);
    try (S3SeekableInputStream head = factory.createStream(S3URI.of("bucket", "a"))) {
      byte[] first = new byte[64 * KIB];
      head.readFully(0, first, 0, first.length);
      assertArrayEquals(Arrays.copyOfRange(content, 0, 64 * KIB), first);
    }
    assertFalse(wholeRead.isDone(), "the 8 MiB GET is still receiving");
    assertEquals(
        List.of(ByteRange.of(0, 8 * MIB - 1)),
        store.gets().stream().map(GetRequest::range).toList());
    controllable.releaseStalledBodies();
    wholeRead.get(10, TimeUnit.SECONDS);
    whole.close();
  }

  @Test
  void aReadWithNoRoomLeftGoesStraightIntoTheCallersBuffer() throws Exception {
    byte[] content = put("a", 2 * MIB, 12);
    factory(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(100 * KIB));
    controllable.stallBodiesAfter(0);
    S3SeekableInputStream holder = factory.createStream(S3URI.of("bucket", "a"));
    CompletableFuture<Void> held = startReading(holder, 80 * KIB);
    // 80 KiB are in flight and cannot be evicted: a 64 KiB read-ahead block does not fit.
    controllable.stallBodiesAfter(-1);
    try (S3SeekableInputStream reader = factory.createStream(S3URI.of("bucket", "a"))) {
      byte[] bytes = new byte[10];
      reader.readFully(MIB, bytes, 0, 10);
      assertArrayEquals(Arrays.copyOfRange(content, MIB, MIB + 10), bytes);
    }
    assertEquals(ByteRange.ofLength(MIB, 10), store.gets().get(1).range());
    assertTrue(factory.getMemoryUsage().highWaterMark() <= 100 * KIB);
    controllable.releaseStalledBodies();
    held.get(10, TimeUnit.SECONDS);
    holder.close();
  }

  @Test
  void concurrentOpensOfOneObjectShareOneHead() throws Exception {
    put("a", 1000, 5);
    factory(PhysicalIOConfiguration.DEFAULT);
    controllable.randomLatency(30);
    runConcurrently(16, i -> factory.createStream(S3URI.of("bucket", "a")).close());
    assertEquals(1, store.heads().size());
  }

  @Test
  void opensOfDifferentObjectsRunTheirHeadsConcurrently() throws Exception {
    for (int i = 0; i < 16; i++) {
      put("object-" + i, 100, i);
    }
    factory(PhysicalIOConfiguration.DEFAULT);
    controllable.holdHeadsUntil(16);
    runConcurrently(16, i -> factory.createStream(S3URI.of("bucket", "object-" + i)).close());
    assertEquals(16, controllable.maxHeadsInFlight());
    assertEquals(16, store.heads().size());
  }

  @Test
  void aHungGetOfOneObjectDoesNotBlockCachedReadsOfAnother() throws Exception {
    byte[] b = put("b", 100_000, 6);
    put("a", 100_000, 7);
    factory(PhysicalIOConfiguration.DEFAULT);
    S3SeekableInputStream streamB = factory.createStream(S3URI.of("bucket", "b"));
    byte[] warm = new byte[50_000];
    streamB.readFully(0, warm, 0, warm.length);

    controllable.hangGets(ObjectLocation.of("bucket", "a"));
    controllable.countGetsFromNow();
    S3SeekableInputStream streamA = factory.createStream(S3URI.of("bucket", "a"));
    CountDownLatch aStarted = new CountDownLatch(1);
    CompletableFuture<Integer> readA =
        CompletableFuture.supplyAsync(
            () -> {
              aStarted.countDown();
              try {
                return streamA.read();
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    assertTrue(aStarted.await(5, TimeUnit.SECONDS));
    assertTrue(controllable.awaitGets(1, 10), "A's GET is sent and hangs");
    for (int i = 0; i < 100; i++) {
      byte[] bytes = new byte[500];
      streamB.readFully(i * 500, bytes, 0, 500);
      assertArrayEquals(Arrays.copyOfRange(b, i * 500, i * 500 + 500), bytes);
    }
    assertFalse(readA.isDone(), "A's GET should still be stuck");
    controllable.releaseHungGets();
    readA.get(10, TimeUnit.SECONDS);
    streamA.close();
    streamB.close();
  }

  @Test
  void manyThreadsStreamLargeObjectsWithinTheMemoryLimit() throws Exception {
    int objects = 8;
    int length = 64 * MIB;
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < objects; i++) {
      contents.add(put("big-" + i, length, 100 + i));
    }
    long limit = 16L * MIB;
    factory(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(limit));
    runConcurrently(
        objects,
        i -> {
          try (S3SeekableInputStream stream =
              factory.createStream(S3URI.of("bucket", "big-" + i))) {
            // Reads shorter than 1 MiB, so that they go through blocks, not straight.
            byte[] buffer = new byte[MIB / 2];
            for (int offset = 0; offset < length; offset += buffer.length) {
              stream.readFully(offset, buffer, 0, buffer.length);
              byte[] expected = Arrays.copyOfRange(contents.get(i), offset, offset + buffer.length);
              if (!Arrays.equals(expected, buffer)) {
                throw new AssertionError("wrong bytes in big-" + i + " at " + offset);
              }
            }
          }
        });
    S3SeekableInputStreamFactory.MemoryUsage memory = factory.getMemoryUsage();
    assertTrue(memory.highWaterMark() <= limit, memory::toString);
    assertTrue(memory.highWaterMark() > 0, memory::toString);
  }

  @Test
  void aFactoryLimitAboveTheJvmsBudgetIsTheBudget() {
    long budget = PhysicalIO.jvmBudget().bytes();
    factory(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(budget * 4));
    assertEquals(budget, factory.getMemoryUsage().limit());
    closeFactory();
    factory(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(budget / 2));
    assertEquals(budget / 2, factory.getMemoryUsage().limit());
  }

  @Test
  void anOverwrittenObjectFailsUncachedReadsAndNewStreamsSeeTheNewVersion() throws IOException {
    put("a", 1 * MIB, 8);
    factory(PhysicalIOConfiguration.DEFAULT);
    S3SeekableInputStream old = factory.createStream(S3URI.of("bucket", "a"));
    old.read();
    byte[] replacement = put("a", 2 * MIB, 9);
    old.seek(MIB - 10);
    ObjectChangedException e = assertThrows(ObjectChangedException.class, old::read);
    assertTrue(e.getMessage().contains("s3://bucket/a"), e.getMessage());
    old.close();
    try (S3SeekableInputStream fresh = factory.createStream(S3URI.of("bucket", "a"))) {
      assertEquals(2 * MIB, fresh.length());
      byte[] bytes = new byte[1000];
      fresh.readFully(MIB + 5, bytes, 0, bytes.length);
      assertArrayEquals(Arrays.copyOfRange(replacement, MIB + 5, MIB + 1005), bytes);
    }
    assertEquals(2, store.heads().size());
  }

  @Test
  void stateOfObjectsNoLongerReadOrCachedIsReleased() throws IOException {
    for (int i = 0; i < 500; i++) {
      put("small-" + i, 100 * KIB, i);
    }
    factory(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(MIB));
    byte[] buffer = new byte[100 * KIB];
    for (int i = 0; i < 500; i++) {
      try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "small-" + i))) {
        stream.readFully(0, buffer, 0, buffer.length);
      }
    }
    // At most the objects whose blocks still fit in 1 MiB keep state.
    assertTrue(factory.trackedObjects() <= 16, () -> factory.trackedObjects() + " objects");
    assertTrue(factory.getMemoryUsage().highWaterMark() <= MIB);
    // Older blocks were evicted to make room, so the last object read is cached: no new GET.
    int gets = store.gets().size();
    assertEquals(500, gets);
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "small-499"))) {
      stream.readFully(0, buffer, 0, buffer.length);
    }
    assertEquals(gets, store.gets().size());
  }

  /** A memory limit of 1 MiB, GETs split by 8 MiB, ten objects' metadata, four fetch threads. */
  private static PhysicalIOConfiguration.Builder oneMebibyte() {
    return PhysicalIOConfiguration.builder()
        .maxMemoryLimit(MIB)
        .maxRequestSize(8 * MIB)
        .metadataCacheSize(10)
        .fetchThreads(4);
  }

  @Test
  void metadataExpiresAfterItsTimeToLive() throws Exception {
    put("a", 100, 13);
    factory(
        oneMebibyte()
            .metadataCacheTtl(Duration.ofMillis(200))
            .readTimeout(Duration.ofMinutes(1))
            .build());
    factory.createStream(S3URI.of("bucket", "a")).close();
    factory.createStream(S3URI.of("bucket", "a")).close();
    assertEquals(1, store.heads().size());
    clock.advance(Duration.ofMillis(199));
    factory.createStream(S3URI.of("bucket", "a")).close();
    assertEquals(1, store.heads().size());
    clock.advance(Duration.ofMillis(2));
    factory.createStream(S3URI.of("bucket", "a")).close();
    assertEquals(2, store.heads().size());
  }

  @Test
  void aReadThatGetsNoBytesInTimeFails() throws Exception {
    put("a", 100_000, 14);
    factory(
        oneMebibyte()
            .metadataCacheTtl(Duration.ofMinutes(1))
            .readTimeout(Duration.ofMillis(300))
            .build());
    controllable.hangGets(ObjectLocation.of("bucket", "a"));
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      InterruptedIOException e = assertThrows(InterruptedIOException.class, stream::read);
      assertTrue(e.getMessage().contains("s3://bucket/a"), e.getMessage());
    } finally {
      controllable.releaseHungGets();
    }
  }

  @Test
  void closingTheFactoryStopsItsThreads() throws Exception {
    put("a", 5 * MIB, 10);
    Set<Thread> before = fetchThreads();
    factory(PhysicalIOConfiguration.DEFAULT);
    try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "a"))) {
      stream.readFully(0, new byte[4 * MIB], 0, 4 * MIB);
    }
    Set<Thread> started = fetchThreads();
    started.removeAll(before);
    assertFalse(started.isEmpty());
    factory.close();
    factory.close();
    // The pool has terminated once close returns; a worker that has just left its last task can
    // still be alive for a moment while the JVM ends the thread.
    for (Thread thread : started) {
      thread.join(5_000);
      assertFalse(thread.isAlive(), thread.getName());
    }
    assertEquals(0, factory.getMemoryUsage().used());
    IOException e =
        assertThrows(IOException.class, () -> factory.createStream(S3URI.of("bucket", "a")));
    assertEquals("The stream factory is closed", e.getMessage());
  }

  /**
   * Starts reading the first {@code length} bytes on another thread; returns once its GET is sent.
   */
  private CompletableFuture<Void> startReading(S3SeekableInputStream stream, int length)
      throws InterruptedException {
    controllable.countGetsFromNow();
    CompletableFuture<Void> read =
        CompletableFuture.runAsync(
            () -> {
              try {
                stream.readFully(0, new byte[length], 0, length);
              } catch (IOException e) {
                throw new RuntimeException(e);
              }
            });
    assertTrue(controllable.awaitGets(1, 10), "the read sends its GET");
    return read;
  }

  private static Set<Thread> fetchThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("seekwell-fetch-") && t.isAlive())
        .collect(Collectors.toSet());
  }

  private interface Task {
    void run(int index) throws Exception;
  }

  private static void runConcurrently(int threads, Task task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  task.run(index);
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
