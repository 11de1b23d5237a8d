package io.seekwell.physical.disk;

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
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.Directories;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slots of a disk cache directory: each scope of factories naming the directory takes the
 * lowest free slot it can use, keeps its own files there within its share of the directory's bound,
 * and frees it when its last factory closes, so that the next opener, taking that slot, finds it
 * warm.
 */
class DiskSlotsTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 2 * MIB + 777;
  private static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "data/slot.parquet");

  @TempDir Path directory;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(13, LENGTH);
  private final String etag = store.put(LOCATION, content);

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics, long diskBytes) {
    return physicalIO(scope, metrics, DiskCacheConfiguration.in(directory, diskBytes));
  }

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics, DiskCacheConfiguration disk) {
    return new PhysicalIO(
        store, PhysicalIOConfiguration.DEFAULT, disk, scope, metrics, Ticker.system());
  }

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics) {
    return physicalIO(scope, metrics, 64 * MIB);
  }

  /** Reads the whole object through {@code io}, checking its bytes. */
  private void readWhole(PhysicalIO io) throws IOException {
    readWhole(io, LOCATION, etag);
  }

  /** Reads the copy of the object at {@code location}, version {@code tag}, through {@code io}. */
  private void readWhole(PhysicalIO io, ObjectLocation location, String tag) throws IOException {
    try (ObjectReader reader = io.open(location, ObjectMetadata.of(LENGTH, tag), IMMUTABLE)) {
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
    return Directories.subdirectories(directory);
  }

  /** The process marks in slot {@code name}. */
  private List<String> marksIn(String name) throws IOException {
    try (Stream<Path> files = Files.list(directory.resolve(name))) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(file -> file.startsWith(".held-by-"))
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
    Metrics oneMetrics = new Metrics();
    Metrics twoMetrics = new Metrics();
    try (PhysicalIO one = physicalIO(first, oneMetrics);
        PhysicalIO two = physicalIO(second, twoMetrics)) {
      readWhole(one);
      readWhole(two);
      DiskWrites.await(oneMetrics, LENGTH);
      DiskWrites.await(twoMetrics, LENGTH);
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
    Metrics written = new Metrics();
    PhysicalIO writing = physicalIO(new DiskCaches(), written);
    try (PhysicalIO other = physicalIO(new DiskCaches(), new Metrics())) {
      readWhole(writing);
      DiskWrites.await(written, LENGTH);
      writing.close(); // the scope's last user: slot-0 is freed
      int getsBefore = store.gets().size();
      Metrics next = new Metrics();
      try (PhysicalIO opener = physicalIO(new DiskCaches(), next)) {
        readWhole(opener);
      }
      assertEquals(getsBefore, store.gets().size(), "GETs of the opener that took slot-0");
      assertEquals(LENGTH, next.get(Metric.DISK_BYTES_READ));
      assertTrue(next.get(Metric.DISK_HITS) > 0, next.toString());
      assertEquals(0, other.trackedObjects(), "the other scope read nothing");
      assertEquals(1, marksIn("slot-1").size(), "slot-1 stayed held meanwhile");
    }
    assertEquals(List.of("slot-0", "slot-1"), slots());
    assertEquals(0, dataFilesIn("slot-1"));
  }

  @Test
  void anOldMarkOfAnotherProcessIsDeletedByTheSlotsNextHolderAndAFreshOneKept() throws IOException {
    Path slot = Files.createDirectories(directory.resolve("slot-0"));
    Path stale = Files.createFile(slot.resolve(".held-by-1-0"));
    Files.setLastModifiedTime(
        stale,
        FileTime.from(
            Instant.now().minus(DiskDirectoryLock.STALE_MARK_AGE).minus(Duration.ofMinutes(1))));
    // A process trying the slot right now: its mark may be live, and must stay.
    Path fresh = Files.createFile(slot.resolve(".held-by-2-0"));
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      readWhole(io);
      assertTrue(Files.notExists(stale), "the crashed process's mark");
      assertTrue(Files.exists(fresh), "the fresh mark of another process");
    }
    assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE));
    assertEquals(List.of("slot-0"), slots());
    assertEquals(
        List.of(".held-by-2-0"), marksIn("slot-0"), "this process's mark goes with its hold");
  }

  @Test
  void aSlotThatCannotBeUsedIsPassedOverForTheNext() throws IOException {
    Path slot = Files.createDirectories(directory.resolve("slot-0"));
    Files.setPosixFilePermissions(slot, PosixFilePermissions.fromString("r-xr-xr-x"));
    if (Files.isWritable(slot)) {
      // Permissions bind no superuser: a regular file in slot-0's place is unusable to anyone.
      Files.delete(slot);
      Files.write(slot, new byte[] {1});
    }
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      readWhole(io);
      DiskWrites.await(metrics, LENGTH);
    }
    assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE));
    assertEquals(1, dataFilesIn("slot-1"));
  }

  @Test
  void aSlotKeepsWithinItsShareOfTheDirectorysBound() throws IOException {
    // 9 MiB for the directory in 3 slots: 3 MiB for this slot, where one copy of the object fits
    // and two do not (in one slot of 9 MiB, both would).
    ObjectLocation copy = ObjectLocation.of("bucket", "data/copy.parquet");
    String copyTag = store.put(copy, content);
    Metrics metrics = new Metrics();
    try (PhysicalIO io =
        physicalIO(new DiskCaches(), metrics, DiskCacheConfiguration.in(directory, 9 * MIB, 3))) {
      readWhole(io);
      DiskWrites.await(metrics, LENGTH);
      readWhole(io, copy, copyTag);
      DiskWrites.await(metrics, 2L * LENGTH);
    }
    assertEquals(1, metrics.get(Metric.DISK_EVICTIONS), "the least recently used copy");
    assertEquals(1, dataFilesIn("slot-0"));
  }

  @Test
  void scopesInSeparateSlotsMaySetDifferentSizes() throws IOException {
    Metrics small = new Metrics();
    try (PhysicalIO big = physicalIO(new DiskCaches(), new Metrics(), 64 * MIB);
        PhysicalIO smaller = physicalIO(new DiskCaches(), small, 32 * MIB)) {
      readWhole(big);
      readWhole(smaller);
      DiskWrites.await(small, LENGTH);
    }
    assertEquals(0, small.get(Metric.DISK_UNAVAILABLE));
  }

  @Test
  void filesAnEarlierVersionLeftOutsideTheSlotsAreLeftAlone() throws IOException {
    Path index = Files.write(directory.resolve("0123abcd.index"), new byte[] {1, 2, 3});
    Path data = Files.write(directory.resolve("0123abcd.data"), new byte[] {4, 5, 6});
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      readWhole(io);
      DiskWrites.await(metrics, LENGTH);
    }
    assertEquals(0, metrics.get(Metric.DISK_CHECKSUM_FAILURES));
    assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(index));
    assertArrayEquals(new byte[] {4, 5, 6}, Files.readAllBytes(data));
    assertEquals(List.of("slot-0"), slots());
  }
}
