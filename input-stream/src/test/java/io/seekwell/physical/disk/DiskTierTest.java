package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.Conditions;
import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.FetchPurpose;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk tier below the block cache, on in-memory objects: what a later factory on the same
 * directory serves without GETs, and what it refuses to serve. The factories of each test share one
 * scope, and so the directory's first slot.
 */
class DiskTierTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 3 * MIB + 12_345;
  private static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;
  private static final FetchContext MUTABLE = Contexts.MUTABLE;

  /** How many mappings one object read from disk leaves: none where files are not mapped. */
  private static final int MAPPED = Mappings.available() ? 1 : 0;

  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "data/file.parquet");

  @TempDir Path directory;

  private final DiskCaches scope = new DiskCaches();

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(7, LENGTH);
  private final String etag = store.put(LOCATION, content);

  private PhysicalIO physicalIO(Metrics metrics, long diskBytes) {
    return physicalIO(metrics, 64 * MIB, DiskCacheConfiguration.in(directory, diskBytes));
  }

  /** Physical IO with {@code memoryLimit} bytes of blocks (1 MiB GETs) over the disk tier. */
  private PhysicalIO physicalIO(Metrics metrics, long memoryLimit, DiskCacheConfiguration disk) {
    return new PhysicalIO(store, configuration(memoryLimit), disk, scope, metrics, Ticker.system());
  }

  private static PhysicalIOConfiguration configuration(long memoryLimit) {
    return PhysicalIOConfiguration.builder()
        .maxMemoryLimit(memoryLimit)
        .targetRequestSize(MIB)
        .maxRequestSize(MIB)
        .metadataCacheSize(100)
        .readTimeout(Duration.ofMinutes(1))
        .fetchThreads(4)
        .coalesceTolerance(0)
        .build();
  }

  /** Reads {@code [position, position + length)} through a fresh factory's reader. */
  private byte[] read(PhysicalIO io, FetchContext context, long position, int length)
      throws IOException {
    try (ObjectReader reader = io.open(LOCATION, ObjectMetadata.of(LENGTH, etag), context)) {
      byte[] bytes = new byte[length];
      int done = 0;
      while (done < length) {
        done += reader.read(position + done, bytes, done, length - done);
      }
      return bytes;
    }
  }

  /** Reads the whole object through a factory of its own, which it closes. */
  private void readWholeInOwnFactory(Metrics metrics, FetchContext context) throws IOException {
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      assertArrayEquals(content, read(io, context, 0, LENGTH));
    }
  }

  /**
   * Reads the whole object, declared immutable, through a factory of its own, which it closes once
   * the whole object is written to disk.
   */
  private void cacheWholeInOwnFactory(Metrics metrics) throws IOException {
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      assertArrayEquals(content, read(io, IMMUTABLE, 0, LENGTH));
      DiskWrites.await(metrics, LENGTH);
    }
  }

  @Test
  void aLaterFactoryOnTheDirectoryServesTheObjectWithNoGet() throws IOException {
    Metrics first = new Metrics();
    cacheWholeInOwnFactory(first);
    int getsBefore = store.gets().size();
    assertEquals(LENGTH, first.get(Metric.DISK_BYTES_WRITTEN));

    Metrics second = new Metrics();
    readWholeInOwnFactory(second, IMMUTABLE);
    assertEquals(getsBefore, store.gets().size(), "GETs sent by the factory that found it on disk");
    assertEquals(LENGTH, second.get(Metric.DISK_BYTES_READ));
    assertEquals(0, second.get(Metric.DISK_MISSES));
    assertTrue(second.get(Metric.DISK_HITS) > 0);
  }

  @Test
  void aRangeStartingAndEndingInsideGranulesIsServedFromDisk() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    int getsBefore = store.gets().size();
    try (PhysicalIO io = physicalIO(new Metrics(), 64 * MIB)) {
      int position = 3 * 65_536 + 100;
      assertArrayEquals(
          Arrays.copyOfRange(content, position, position + 70_000),
          read(io, IMMUTABLE, position, 70_000));
    }
    assertEquals(getsBefore, store.gets().size());
  }

  @Test
  void anObjectNotDeclaredImmutableNeverTouchesTheDisk() throws IOException {
    Metrics metrics = new Metrics();
    readWholeInOwnFactory(metrics, MUTABLE);
    assertEquals(List.of(), dataAndIndexFiles());
    assertEquals(0, metrics.get(Metric.DISK_BYTES_WRITTEN));
    assertEquals(0, metrics.get(Metric.DISK_MISSES));
  }

  @Test
  void aCorruptGranuleIsDetectedAndFetchedAgain() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    Path data = only(".data");
    try (FileChannel channel = FileChannel.open(data, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {(byte) ~content[2 * MIB + 5]}), 2 * MIB + 5);
    }
    int getsBefore = store.gets().size();
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      assertArrayEquals(content, read(io, IMMUTABLE, 0, LENGTH));
      DiskWrites.await(metrics, 65_536); // the bad granule, written again
    }
    assertEquals(1, metrics.get(Metric.DISK_CHECKSUM_FAILURES));
    List<GetRequest> refetched = store.gets().subList(getsBefore, store.gets().size());
    assertFalse(refetched.isEmpty());
    ByteRange bad = ByteRange.ofLength(2 * MIB, 65_536);
    for (GetRequest get : refetched) {
      assertTrue(
          get.range().start() <= bad.end() && get.range().end() >= bad.start(),
          "only blocks holding the bad granule are fetched again: " + refetched);
    }

    int getsAfterRepair = store.gets().size();
    readWholeInOwnFactory(new Metrics(), IMMUTABLE);
    assertEquals(getsAfterRepair, store.gets().size(), "the granule was written again");
  }

  @Test
  void aTruncatedDataFileIsDetectedAndFetchedAgain() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    try (FileChannel channel = FileChannel.open(only(".data"), StandardOpenOption.WRITE)) {
      channel.truncate(MIB + 1000);
    }
    Metrics metrics = new Metrics();
    readWholeInOwnFactory(metrics, IMMUTABLE);
    assertTrue(metrics.get(Metric.DISK_CHECKSUM_FAILURES) >= 1);
    assertEquals(MIB + 1000 - (MIB + 1000) % 65_536, metrics.get(Metric.DISK_BYTES_READ));
  }

  @Test
  void aDataFileCutShortWhileMappedIsDetectedAndFetchedAgain() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      assertArrayEquals(content, read(io, IMMUTABLE, 0, LENGTH)); // from disk: the file is mapped
      assertEquals(MAPPED, mappingsIn(directory));
      try (FileChannel channel = FileChannel.open(only(".data"), StandardOpenOption.WRITE)) {
        channel.truncate(MIB);
      }
      io.invalidate(LOCATION);
      int getsBefore = store.gets().size();
      assertArrayEquals(content, read(io, IMMUTABLE, 0, LENGTH));
      assertTrue(store.gets().size() > getsBefore, "the store serves what the disk lost");
    }
    assertEquals(LENGTH + MIB, metrics.get(Metric.DISK_BYTES_READ), "all, then the first MiB");
    assertTrue(metrics.get(Metric.DISK_CHECKSUM_FAILURES) >= 1);
    assertEquals(0, metrics.get(Metric.DISK_ERRORS));
  }

  @Test
  void theTierHoldsNoFileOpenBetweenWritesAndUnmapsWhenClosed() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    try (PhysicalIO io = physicalIO(new Metrics(), 64 * MIB)) {
      assertArrayEquals(content, read(io, IMMUTABLE, 0, LENGTH)); // from disk: nothing to write
      assertEquals(
          List.of(directory.toRealPath().resolve("slot-0").resolve(".lock")),
          filesOpenIn(directory));
      assertEquals(MAPPED, mappingsIn(directory));
    }
    assertEquals(List.of(), filesOpenIn(directory));
    assertEquals(0, mappingsIn(directory));
  }

  @Test
  void atMostTheBoundOfObjectsStayMapped() throws IOException {
    int objects = DiskReader.MAPPED_OBJECTS + 16;
    List<ObjectLocation> locations = new ArrayList<>();
    List<byte[]> contents = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    for (int i = 0; i < objects; i++) {
      locations.add(ObjectLocation.of("bucket", "manifests/" + i + ".avro"));
      contents.add(TestData.randomBytes(i, 1000));
      tags.add(store.put(locations.get(i), contents.get(i)));
    }
    Metrics written = new Metrics();
    try (PhysicalIO io = physicalIO(written, 64 * MIB)) {
      for (int i = 0; i < objects; i++) {
        readSmall(io, locations.get(i), tags.get(i), contents.get(i));
        if (i % 32 == 31) {
          DiskWrites.await(written, (i + 1) * 1000L);
        }
      }
      DiskWrites.await(written, objects * 1000L);
    }
    assertEquals(objects * 1000L, written.get(Metric.DISK_BYTES_WRITTEN));

    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      for (int i = 0; i < objects; i++) {
        readSmall(io, locations.get(i), tags.get(i), contents.get(i));
      }
      assertEquals(objects * 1000L, metrics.get(Metric.DISK_BYTES_READ), "each was mapped");
      long mapped = mappingsIn(directory);
      // The bound, plus what a fetch thread may have just mapped and not yet counted (4 threads).
      assertTrue(mapped >= MAPPED && mapped <= DiskReader.MAPPED_OBJECTS + 4, mapped + " mappings");
    }
  }

  private static void readSmall(PhysicalIO io, ObjectLocation location, String tag, byte[] expected)
      throws IOException {
    try (ObjectReader reader = io.open(location, ObjectMetadata.of(1000, tag), IMMUTABLE)) {
      byte[] bytes = new byte[1000];
      assertEquals(1000, reader.read(0, bytes, 0, 1000));
      assertArrayEquals(expected, bytes);
    }
  }

  /** The files of {@code directory} this process has open (Linux). */
  private static List<Path> filesOpenIn(Path directory) throws IOException {
    Path real = directory.toRealPath();
    List<Path> open = new ArrayList<>();
    try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
      for (Path descriptor : (Iterable<Path>) descriptors::iterator) {
        try {
          Path target = Files.readSymbolicLink(descriptor);
          if (target.startsWith(real)) {
            open.add(target);
          }
        } catch (IOException e) {
          // Closed since it was listed (the listing's own descriptor, for one).
        }
      }
    }
    return open;
  }

  /** How many mappings this process holds of files in {@code directory} (Linux). */
  private static long mappingsIn(Path directory) throws IOException {
    String real = directory.toRealPath() + "/";
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
      return lines.filter(line -> line.contains(real)).count();
    }
  }

  @Test
  void anIndexNamingAnotherObjectIsForeignAndDropped() throws IOException {
    ObjectLocation other = ObjectLocation.of("bucket", "data/other.parquet");
    byte[] otherContent = TestData.randomBytes(8, LENGTH);
    String otherEtag = store.put(other, otherContent);
    try (PhysicalIO io = physicalIO(new Metrics(), 64 * MIB);
        ObjectReader reader = io.open(other, ObjectMetadata.of(LENGTH, otherEtag), IMMUTABLE)) {
      reader.read(0, new byte[LENGTH], 0, LENGTH);
    }
    Path otherIndex = only(".index");
    Path otherData = only(".data");
    cacheWholeInOwnFactory(new Metrics());
    Path index =
        dataAndIndexFiles().stream()
            .filter(file -> file.toString().endsWith(".index") && !file.equals(otherIndex))
            .findFirst()
            .orElseThrow();
    Files.copy(otherIndex, index, StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        otherData,
        Path.of(index.toString().replace(".index", ".data")),
        StandardCopyOption.REPLACE_EXISTING);

    int getsBefore = store.gets().size();
    Metrics metrics = new Metrics();
    readWholeInOwnFactory(metrics, IMMUTABLE);
    assertEquals(1, metrics.get(Metric.DISK_CHECKSUM_FAILURES));
    assertEquals(0, metrics.get(Metric.DISK_BYTES_READ));
    assertTrue(store.gets().size() > getsBefore);
  }

  @Test
  void aSlotStaysWithinItsShareOfTheBoundEvictingTheLeastRecentlyUsed() throws IOException {
    Metrics metrics = new Metrics();
    // 8 MiB for the directory, in the default 4 slots: 2 MiB for this scope's slot.
    try (PhysicalIO io = physicalIO(metrics, 8 * MIB)) {
      for (int i = 0; i < 6; i++) {
        ObjectLocation location = ObjectLocation.of("bucket", "small/" + i);
        byte[] bytes = TestData.randomBytes(i, 700_000);
        String tag = store.put(location, bytes);
        try (ObjectReader reader =
            io.open(location, ObjectMetadata.of(bytes.length, tag), IMMUTABLE)) {
          reader.read(0, new byte[bytes.length], 0, bytes.length);
        }
      }
      DiskWrites.await(metrics, 6 * 700_000L);
    }
    long onDisk = 0;
    for (Path file : dataAndIndexFiles()) {
      if (file.toString().endsWith(".data")) {
        onDisk += Files.size(file);
      }
    }
    assertTrue(onDisk <= 2 * MIB, onDisk + " bytes on disk, a quarter of the bound at most");
    assertEquals(4, metrics.get(Metric.DISK_EVICTIONS), "six of 700,000 bytes, two fit in 2 MiB");
    assertEquals(
        2, dataAndIndexFiles().stream().filter(f -> f.toString().endsWith(".data")).count());
  }

  @Test
  void factoriesOfOneScopeShareADirectory() throws IOException {
    Metrics metrics = new Metrics();
    try (PhysicalIO first = physicalIO(metrics, 64 * MIB)) {
      assertArrayEquals(content, read(first, IMMUTABLE, 0, LENGTH));
      DiskWrites.await(metrics, LENGTH);
      int getsBefore = store.gets().size();
      try (PhysicalIO second = physicalIO(new Metrics(), 64 * MIB)) {
        assertArrayEquals(content, read(second, IMMUTABLE, 0, LENGTH));
      }
      assertEquals(getsBefore, store.gets().size(), "the second factory read from the disk");
    }
  }

  @Test
  void aFactoryClosedTwiceLeavesTheDirectoryOnce() throws IOException {
    PhysicalIO leaving = physicalIO(new Metrics(), 64 * MIB);
    Metrics metrics = new Metrics();
    try (PhysicalIO staying = physicalIO(metrics, 64 * MIB)) {
      leaving.close();
      leaving.close();
      assertArrayEquals(content, read(staying, IMMUTABLE, 0, LENGTH));
      DiskWrites.await(metrics, LENGTH);
    }
    assertEquals(0, metrics.get(Metric.DISK_WRITES_SKIPPED), "writes a closed writer refused");
    assertEquals(
        LENGTH,
        metrics.get(Metric.DISK_BYTES_WRITTEN),
        "the cache stayed open for the factory still using it");
  }

  @Test
  void factoriesSharingADirectoryMustAgreeOnItsSizeAndSlots() {
    try (PhysicalIO first = physicalIO(new Metrics(), 64 * MIB)) {
      assertEquals(0, first.trackedObjects(), "nothing read: the cache alone is held");
      for (DiskCacheConfiguration other :
          List.of(
              DiskCacheConfiguration.in(directory, 32 * MIB),
              DiskCacheConfiguration.in(directory, 64 * MIB, 2))) {
        IllegalArgumentException refused =
            assertThrows(
                IllegalArgumentException.class, () -> physicalIO(new Metrics(), 64 * MIB, other));
        assertTrue(
            refused.getMessage().contains("physicalio.disk.cache.max.size"), refused.getMessage());
        assertTrue(
            refused.getMessage().contains("physicalio.disk.cache.max.slots"), refused.getMessage());
      }
    }
  }

  @Test
  void aDiskThatFailsPausesTheTierAndReadsGoOnFromTheStore() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    Path data = only(".data");
    Files.delete(data);
    Files.createDirectory(data); // reading and writing the data file now fail
    Metrics metrics = new Metrics();
    readWholeInOwnFactory(metrics, IMMUTABLE);
    assertTrue(metrics.get(Metric.DISK_ERRORS) >= 1);
    assertTrue(
        metrics.get(Metric.DISK_ERRORS) <= 4, "at most one per fetch thread before the pause");
    assertEquals(0, metrics.get(Metric.DISK_BYTES_READ));
    assertTrue(
        metrics.get(Metric.DISK_WRITES_SKIPPED) >= 1, "the paused tier writes nothing after that");
    assertEquals(0, metrics.get(Metric.DISK_BYTES_WRITTEN));
  }

  @Test
  void aFullDiskIsSurvived() throws IOException {
    Metrics first = new Metrics();
    try (PhysicalIO io = physicalIO(first, 64 * MIB)) {
      read(io, IMMUTABLE, 0, MIB);
      DiskWrites.await(first, MIB);
    }
    Path data = only(".data");
    Files.delete(data);
    Files.createSymbolicLink(data, Path.of("/dev/full")); // writes fail with ENOSPC
    Metrics metrics = new Metrics();
    try (PhysicalIO io = physicalIO(metrics, 64 * MIB)) {
      // Only bytes the disk does not hold: they are fetched, and writing them fails.
      assertArrayEquals(
          Arrays.copyOfRange(content, MIB, LENGTH), read(io, IMMUTABLE, MIB, LENGTH - MIB));
      Conditions.await(
          () -> metrics.get(Metric.DISK_ERRORS) >= 1, Duration.ofMinutes(1), "a full disk's error");
    }
    assertEquals(0, metrics.get(Metric.DISK_BYTES_WRITTEN));
    assertEquals(0, metrics.get(Metric.DISK_BYTES_READ));
  }

  @Test
  void aDataFileWithoutItsIndexIsDeletedWhenTheTierStarts() throws IOException {
    cacheWholeInOwnFactory(new Metrics());
    Files.delete(only(".index")); // as a crash before the index was written would leave it
    physicalIO(new Metrics(), 64 * MIB).close(); // the tier starts, and lists the directory
    assertEquals(List.of(), dataAndIndexFiles());
  }

  @Test
  void aScanOfALargeObjectIsNotWrittenUnlessScansAreAsked() throws IOException {
    // With a 4 MiB memory limit, the 3 MiB object is large (over a quarter of it): read ahead for
    // a scan, it is dropped from memory once read, and by default not written to disk either.
    for (boolean scans : new boolean[] {false, true}) {
      Metrics metrics = new Metrics();
      try (PhysicalIO io =
              physicalIO(
                  metrics,
                  4 * MIB,
                  DiskCacheConfiguration.in(directory, 64 * MIB).withScans(scans));
          ObjectReader reader = io.open(LOCATION, ObjectMetadata.of(LENGTH, etag), IMMUTABLE)) {
        reader.prefetch(ByteRange.of(0, MIB - 1), FetchPurpose.SCAN);
        byte[] bytes = new byte[MIB];
        int done = 0;
        while (done < MIB) {
          done += reader.read(done, bytes, done, MIB - done);
        }
        assertArrayEquals(Arrays.copyOf(content, MIB), bytes);
        if (scans) {
          DiskWrites.await(metrics, MIB);
        }
      }
      assertEquals(scans ? MIB : 0, metrics.get(Metric.DISK_BYTES_WRITTEN), "scans: " + scans);
    }
  }

  private Path only(String suffix) throws IOException {
    List<Path> files =
        dataAndIndexFiles().stream().filter(file -> file.toString().endsWith(suffix)).toList();
    assertEquals(1, files.size(), files.toString());
    return files.get(0);
  }

  /** The files of cached objects in the slot this test's scope uses. */
  private List<Path> dataAndIndexFiles() throws IOException {
    try (Stream<Path> files = Files.list(directory.resolve("slot-0"))) {
      return files.filter(file -> !file.getFileName().toString().startsWith(".")).toList();
    }
  }
}
