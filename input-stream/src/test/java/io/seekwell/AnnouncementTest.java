package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Objects announced ahead ({@link S3SeekableInputStreamFactory#announce}) are prefetched, in order
 * and within a window of objects and bytes, as soon as a stream opens one of them; closing the
 * announcement drops what was prefetched for objects never opened, counted as unused.
 */
class AnnouncementTest {

  private static final int MIB = 1024 * 1024;
  private static final int OBJECTS = 6;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ControllableObjectClient controllable = new ControllableObjectClient(store);
  private final List<byte[]> contents = new ArrayList<>();
  private S3SeekableInputStreamFactory factory;

  @AfterEach
  void close() {
    controllable.releaseHungGets();
    if (factory != null) {
      factory.close();
    }
  }

  private void start(Map<String, String> settings) {
    for (int i = 0; i < OBJECTS; i++) {
      byte[] content = TestData.randomBytes(i, MIB);
      contents.add(content);
      store.put(location(i), content);
    }
    factory =
        new S3SeekableInputStreamFactory(
            controllable,
            S3SeekableInputStreamConfiguration.fromConfiguration(
                ConnectorConfiguration.of(settings, "")));
  }

  private static ObjectLocation location(int object) {
    return ObjectLocation.of("bucket", "task/part-" + object + ".bin");
  }

  private static S3URI uri(int object) {
    return S3URI.of("bucket", "task/part-" + object + ".bin");
  }

  private Announcement announceAll() {
    return factory.announce(
        IntStream.range(0, OBJECTS).mapToObj(i -> AnnouncedObject.of(uri(i), MIB)).toList());
  }

  private S3SeekableInputStream open(int object) throws IOException {
    return factory.createStream(
        uri(object), OpenStreamInformation.builder().objectLength(MIB).build());
  }

  private void readWhole(int object) throws IOException {
    try (S3SeekableInputStream in = open(object)) {
      byte[] bytes = new byte[MIB];
      in.readFully(0, bytes, 0, MIB);
      assertArrayEquals(contents.get(object), bytes, "object " + object);
    }
  }

  private long metric(Metric metric) {
    return factory.getMetrics().get(metric);
  }

  /** How many GETs each object got. */
  private Map<String, Long> getsPerObject() {
    return store.gets().stream()
        .collect(Collectors.groupingBy(get -> get.location().key(), Collectors.counting()));
  }

  @Test
  void theNextObjectsArePrefetchedWhenTheFirstOpensBeforeItsFirstReadReturns() throws Exception {
    // No hedges: the other objects' GETs answer at once, which brings the hedge deadline down to
    // its 50 ms floor, and a test thread held up that long would have the hung GET copied.
    start(Map.of("logicalio.announced.prefetch.files", "3", "client.hedge.max.copies", "0"));
    controllable.hangGets(location(0));
    try (Announcement task = announceAll()) {
      assertEquals(OBJECTS, task.size());
      S3SeekableInputStream first = open(0);
      // The first object's own GET is held back, and nothing has been read yet: the next three
      // objects' GETs were started by the open (the first object's whole-object GET is the 1 MiB
      // more).
      assertEquals(4L * MIB, metric(Metric.PREFETCHED_BYTES));
      controllable.releaseHungGets();
      first.close();
      for (int object = 0; object < OBJECTS; object++) {
        readWhole(object);
      }
    }
    Map<String, Long> expected = new HashMap<>();
    for (int object = 0; object < OBJECTS; object++) {
      expected.put(location(object).key(), 1L);
    }
    assertEquals(expected, getsPerObject(), "one GET per object");
    assertEquals(0, metric(Metric.PREFETCHED_BYTES_UNUSED));
  }

  @Test
  void theWindowSlidesAsObjectsOpenWithinItsObjectsAndBytes() throws Exception {
    start(
        Map.of(
            "logicalio.announced.prefetch.files", "8", "logicalio.announced.prefetch.size", "2MB"));
    try (Announcement task = announceAll()) {
      assertEquals(OBJECTS, task.size());
      readWhole(0);
      // Two objects of 1 MiB fit in 2 MB ahead, besides the opened one's own.
      assertEquals(3L * MIB, metric(Metric.PREFETCHED_BYTES));
      readWhole(1);
      assertEquals(4L * MIB, metric(Metric.PREFETCHED_BYTES));
      readWhole(2);
      assertEquals(5L * MIB, metric(Metric.PREFETCHED_BYTES));
    }
  }

  @Test
  void closingTheAnnouncementDropsWhatWasPrefetchedForObjectsNeverOpened() throws Exception {
    start(Map.of("logicalio.announced.prefetch.files", "3"));
    Announcement task = announceAll();
    readWhole(0);
    task.close();
    assertEquals(3L * MIB, metric(Metric.PREFETCHED_BYTES_UNUSED), "three objects never opened");
    // Opening one of them now fetches it afresh.
    // (GETs of the others may still be sent: only object 1's are counted, once its prefetch GET,
    // which a fetch thread sends even for a block already dropped, has been sent.)
    while (!getsPerObject().containsKey(location(1).key())) {
      assertTrue(controllable.awaitGets(1, 60), "object 1's prefetch GET is sent");
    }
    long before = getsPerObject().get(location(1).key());
    readWhole(1);
    assertEquals(before + 1, getsPerObject().get(location(1).key()));
  }

  @Test
  void prefetchingAheadStaysWithinTheMemoryBound() throws Exception {
    // A quarter of 4 MB may be prefetched ahead: one object.
    start(Map.of("physicalio.max.memory.limit", "4MB"));
    try (Announcement task = announceAll()) {
      assertEquals(OBJECTS, task.size());
      for (int object = 0; object < OBJECTS; object++) {
        readWhole(object);
      }
    }
    assertTrue(factory.getMemoryUsage().highWaterMark() <= 4L * MIB);
    assertEquals(OBJECTS, store.gets().stream().map(GetRequest::location).distinct().count());
  }

  @Test
  void anAnnouncedObjectLongerThanTheSmallObjectsButShorterThanTheTailIsPrefetchedWhole()
      throws Exception {
    // At 4 MB an object over 1 MiB is scanned, not small, and the tail (1 MiB + 32 KiB) is longer.
    start(Map.of("physicalio.max.memory.limit", "4MB"));
    int length = MIB + 1024;
    byte[] content = TestData.randomBytes(99, length);
    S3URI uri = S3URI.of("bucket", "task/odd.bin");
    store.put(ObjectLocation.of("bucket", "task/odd.bin"), content);
    try (Announcement task = factory.announce(List.of(AnnouncedObject.of(uri, length)))) {
      assertEquals(1, task.size());
      try (S3SeekableInputStream in =
          factory.createStream(uri, OpenStreamInformation.builder().objectLength(length).build())) {
        byte[] bytes = new byte[length];
        in.readFully(0, bytes, 0, length);
        assertArrayEquals(content, bytes);
      }
    }
    assertEquals(
        List.of(ByteRange.of(0, length - 1)),
        store.gets().stream().map(GetRequest::range).toList());
  }

  @Test
  void anAnnouncedObjectNeedsItsLength() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> new AnnouncedObject(uri(0), OpenStreamInformation.ofDefaults()));
    assertTrue(error.getMessage().contains("task/part-0.bin"), error.getMessage());
    assertEquals(Set.of(), Set.copyOf(store.gets()));
  }
}
