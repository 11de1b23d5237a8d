package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slots of a disk cache directory: each scope of factories naming the directory takes the
 * lowest free slot, keeps its own files there and frees it when its last factory closes, so that
 * the next opener finds it warm.
 */
class DiskSlotsTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 2 * MIB + 777;
  private static final FetchContext IMMUTABLE =
      new FetchContext(RequestOptions.none(), range -> {}, true);
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "data/slot.parquet");

  @TempDir Path directory;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(13, LENGTH);
  private final String etag = store.put(LOCATION, content);

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics, long diskBytes) {
    return new PhysicalIO(
        store,
        PhysicalIOConfiguration.DEFAULT,
        DiskCacheConfiguration.in(directory, diskBytes),
        scope,
        metrics,
        Ticker.system());
  }

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics) {
    return physicalIO(scope, metrics, 64 * MIB);
  }

  /** Reads the whole object through {@code io}, checking its bytes. */
  private void readWhole(PhysicalIO io) throws IOException {
    try (ObjectReader reader = io.open(LOCATION, ObjectMetadata.of(LENGTH, etag), IMMUTABLE)) {
      byte[] bytes = new byte[LENGTH];
      int done = 0;
      while (done < LENGTH) {
        done += reader.read(done, bytes, done, LENGTH - done);
      }
      assertArrayEquals(content, bytes);
    }
  }

  /** The slots the directory holds, by name. */
  private List<String> slots() throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries
          .filter(Files::isDirectory)
          .map(entry -> entry.getFileName().toString())
          .sorted()
          .toList();
    }
  }

  /** The data files in slot {@code name}. */
  private long dataFilesIn(String name) throws IOException {
    try (Stream<Path> files = Files.list(directory.resolve(name))) {
      return files.filter(file -> file.toString().endsWith(".data")).count();
    }
  }

  @Test
  void twoScopesNamingOneDirectoryGetTwoSlotsAndBothServeFromDisk() throws IOException {
    DiskCaches first = new DiskCaches();
    DiskCaches second = new DiskCaches();
    try (PhysicalIO one = physicalIO(first, new Metrics());
        PhysicalIO two = physicalIO(second, new Metrics())) {
      readWhole(one);
      readWhole(two);
      // A user of a cache that closes waits for the writes queued so far.
      physicalIO(first, new Metrics()).close();
      physicalIO(second, new Metrics()).close();
      assertEquals(List.of("slot-0", "slot-1"), slots());
      assertEquals(1, dataFilesIn("slot-0"));
      assertEquals(1, dataFilesIn("slot-1"));

      int getsBefore = store.gets().size();
      for (DiskCaches scope : List.of(first, second)) {
        Metrics warm = new Metrics();
        try (PhysicalIO again = physicalIO(scope, warm)) {
          readWhole(again);
        }
        assertEquals(LENGTH, warm.get(Metric.DISK_BYTES_READ));
        assertTrue(warm.get(Metric.DISK_HITS) > 0, warm.toString());
        assertEquals(0, warm.get(Metric.DISK_UNAVAILABLE));
      }
      assertEquals(getsBefore, store.gets().size(), "GETs once both slots were warm");
    }
  }

  @Test
  void aFreedSlotIsTakenByTheNextOpenerAndFoundWarm() throws IOException {
    PhysicalIO writing = physicalIO(new DiskCaches(), new Metrics());
    try (PhysicalIO other = physicalIO(new DiskCaches(), new Metrics())) {
      readWhole(writing);
      writing.close(); // the scope's last user: its writes finish, and slot-0 is freed
      int getsBefore = store.gets().size();
      Metrics next = new Metrics();
      try (PhysicalIO opener = physicalIO(new DiskCaches(), next)) {
        readWhole(opener);
      }
      assertEquals(getsBefore, store.gets().size(), "GETs of the opener that took slot-0");
      assertEquals(LENGTH, next.get(Metric.DISK_BYTES_READ));
      assertTrue(next.get(Metric.DISK_HITS) > 0, next.toString());
      assertTrue(other.memoryUsed() >= 0, "slot-1 stayed held meanwhile");
    }
    assertEquals(List.of("slot-0", "slot-1"), slots());
    assertEquals(0, dataFilesIn("slot-1"));
  }

  @Test
  void aMarkLeftByACrashedProcessIsDeletedByTheSlotsNextHolder() throws IOException {
    Path slot = Files.createDirectories(directory.resolve("slot-0"));
    Path stale = Files.createFile(slot.resolve(".held-by-1-0"));
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      readWhole(io);
      assertTrue(Files.notExists(stale), "the crashed process's mark");
    }
    assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE));
    assertEquals(List.of("slot-0"), slots());
    try (Stream<Path> files = Files.list(slot)) {
      assertEquals(
          List.of(),
          files.filter(file -> file.getFileName().toString().startsWith(".held-by-")).toList(),
          "this process's mark goes with its hold");
    }
  }

  @Test
  void scopesInSeparateSlotsMaySetDifferentSizes() throws IOException {
    Metrics small = new Metrics();
    try (PhysicalIO big = physicalIO(new DiskCaches(), new Metrics(), 64 * MIB);
        PhysicalIO smaller = physicalIO(new DiskCaches(), small, 32 * MIB)) {
      readWhole(big);
      readWhole(smaller);
    }
    assertEquals(0, small.get(Metric.DISK_UNAVAILABLE));
    assertEquals(LENGTH, small.get(Metric.DISK_BYTES_WRITTEN));
  }

  @Test
  void filesAnEarlierVersionLeftOutsideTheSlotsAreLeftAlone() throws IOException {
    Path index = Files.write(directory.resolve("0123abcd.index"), new byte[] {1, 2, 3});
    Path data = Files.write(directory.resolve("0123abcd.data"), new byte[] {4, 5, 6});
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      readWhole(io);
    }
    assertEquals(LENGTH, metrics.get(Metric.DISK_BYTES_WRITTEN));
    assertEquals(0, metrics.get(Metric.DISK_CHECKSUM_FAILURES));
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(index));
    assertArrayEquals(new byte[] {4, 5, 6}, Files.readAllBytes(data));
    assertEquals(List.of("slot-0"), slots());
  }
}
