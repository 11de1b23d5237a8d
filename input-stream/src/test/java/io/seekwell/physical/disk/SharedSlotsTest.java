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
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading what other slots of the directory hold: another JVM's (a child process), or another
 * scope's of this JVM, which for the files is the same. Read only, never a wrong byte, never
 * another version's or a mutable object's.
 */
@SuppressWarnings("try") // holders are opened for the slot they keep, not to be called
class SharedSlotsTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 3 * MIB + 12_345;
  private static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;
  private static final FetchContext MUTABLE = Contexts.MUTABLE;
  private static final String KEY = "warehouse/db/t/metadata/snap-1.avro";
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", KEY);

  @TempDir Path directory;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(11, LENGTH);
  private final String etag = store.put(LOCATION, content);

  private PhysicalIO physicalIO(DiskCaches scope, Metrics metrics) {
    PhysicalIOConfiguration configuration =
        PhysicalIOConfiguration.builder()
            .targetRequestSize(MIB)
            .maxRequestSize(MIB)
            .readTimeout(Duration.ofMinutes(1))
            .coalesceTolerance(0)
            .build();
    return new PhysicalIO(
        store,
        configuration,
        DiskCacheConfiguration.in(directory, 64L * MIB),
        scope,
        metrics,
        Ticker.system());
  }

  private static byte[] readWhole(PhysicalIO io, String tag, FetchContext context)
      throws IOException {
    try (ObjectReader reader = io.open(LOCATION, ObjectMetadata.of(LENGTH, tag), context)) {
      byte[] bytes = new byte[LENGTH];
      for (int done = 0; done < LENGTH; ) {
        done += reader.read(done, bytes, done, LENGTH - done);
      }
      return bytes;
    }
  }

  /**
   * A factory of a scope of its own, which takes the first free slot and writes the whole object
   * there before it is returned.
   */
  private PhysicalIO holdingTheObject() throws IOException {
    Metrics metrics = new Metrics();
    PhysicalIO io = physicalIO(new DiskCaches(), metrics);
    try {
      readWhole(io, etag, IMMUTABLE);
      DiskWrites.await(metrics, LENGTH);
      return io;
    } catch (IOException | RuntimeException | Error e) {
      io.close();
      throw e;
    }
  }

  /** Reads the object whole in a factory of a scope of its own, counting in {@code metrics}. */
  private byte[] readInAnotherSlot(Metrics metrics, String tag, FetchContext context)
      throws IOException {
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      return readWhole(io, tag, context);
    }
  }

  @Test
  void anObjectAnotherJvmWroteIsReadFromItsSlotWithNoGet() throws Exception {
    try (LockHolderProcess other =
        LockHolderProcess.start(directory, List.of(KEY, String.valueOf(LENGTH), "11"))) {
      assertEquals(List.of("slot-0"), other.slotsHeld());
      // Both processes' stores name the object's first version alike.
      assertTrue(other.ready().endsWith(" " + etag), other.ready());
      Metrics metrics = new Metrics();
      assertArrayEquals(content, readInAnotherSlot(metrics, etag, IMMUTABLE));
      assertEquals(0, store.gets().size(), "GETs of the JVM that found it in another's slot");
      assertEquals(LENGTH, metrics.get(Metric.DISK_SHARED_BYTES_READ));
      assertEquals(3, metrics.get(Metric.DISK_SHARED_HITS), "the object's three blocks");
      assertEquals(0, metrics.get(Metric.DISK_BYTES_READ), "its own slot, slot-1, was empty");
    }
  }

  @Test
  void whatAnotherSlotServesIsAlsoKeptInTheReadersOwnSlot() throws IOException {
    try (PhysicalIO holder = holdingTheObject()) { // open: it keeps its slot while others read
      int getsBefore = store.gets().size();
      Metrics metrics = new Metrics();
      try (PhysicalIO second = physicalIO(new DiskCaches(), metrics)) {
        assertArrayEquals(content, readWhole(second, etag, IMMUTABLE));
        DiskWrites.await(metrics, LENGTH);
      }
      assertEquals(LENGTH, metrics.get(Metric.DISK_SHARED_BYTES_READ));
      assertEquals(getsBefore, store.gets().size());
    }
    assertEquals(List.of("slot-0", "slot-1"), slots());
    assertEquals(2, dataFiles().size(), "a copy in each slot");
  }

  @Test
  void aGranuleThatFailsItsChecksumIsFetchedAndTheOtherSlotIsLeftAsItWas() throws IOException {
    try (PhysicalIO holder = holdingTheObject()) { // open: it keeps its slot while others read
      int getsBefore = store.gets().size();
      Path data = dataFiles().get(0);
      try (FileChannel channel = FileChannel.open(data, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(new byte[] {(byte) ~content[2 * MIB + 5]}), 2 * MIB + 5);
      }
      byte[] corrupted = Files.readAllBytes(data);
      Path indexFile = only(".index");
      byte[] index = Files.readAllBytes(indexFile);

      Metrics metrics = new Metrics();
      assertArrayEquals(content, readInAnotherSlot(metrics, etag, IMMUTABLE));
      // Two GETs: the rest of the block the bad granule is in, and the next block, which starts
      // inside that granule.
      assertEquals(getsBefore + 2, store.gets().size());
      assertEquals(2 * MIB, metrics.get(Metric.DISK_SHARED_BYTES_READ));
      assertEquals(0, metrics.get(Metric.DISK_CHECKSUM_FAILURES), "not its own slot's");
      assertArrayEquals(corrupted, Files.readAllBytes(data), "the other slot is not written");
      assertArrayEquals(index, Files.readAllBytes(indexFile));
    }
  }

  @Test
  void anotherVersionOrAMutableObjectIsNeverReadFromAnotherSlot() throws IOException {
    try (PhysicalIO holder = holdingTheObject()) { // open: it keeps its slot while others read
      int getsBefore = store.gets().size();

      byte[] overwritten = TestData.randomBytes(12, LENGTH);
      String newTag = store.put(LOCATION, overwritten);
      Metrics metrics = new Metrics();
      assertArrayEquals(overwritten, readInAnotherSlot(metrics, newTag, IMMUTABLE));
      assertArrayEquals(overwritten, readInAnotherSlot(metrics, newTag, MUTABLE));
      assertEquals(0, metrics.get(Metric.DISK_SHARED_BYTES_READ));
      assertEquals(3 * getsBefore, store.gets().size(), "each read GETs what the first did");
    }
  }

  @Test
  void anIndexOfAnotherObjectOrALinkInAnotherSlotIsNotRead() throws IOException {
    holdingTheObject().close();
    Path index = only(".index");
    Path data = only(".data");
    // slot-1: the object's files, with a header naming another object; slot-2: links to slot-0's.
    Path foreign = Files.createDirectories(directory.resolve("slot-1"));
    byte[] stored = Files.readAllBytes(index);
    byte[] other = GranuleIndex.header("s3://bucket/another\n" + LENGTH + "\n\"v9\"\n", LENGTH);
    byte[] records = Arrays.copyOfRange(stored, headerLength(stored), stored.length);
    Files.write(foreign.resolve(index.getFileName()), concat(other, records));
    Files.copy(data, foreign.resolve(data.getFileName()));
    Path outside = Files.createDirectories(directory.getParent().resolve(directory + "-outside"));
    Path linked = Files.createDirectories(directory.resolve("slot-2"));
    for (Path file : List.of(index, data)) {
      Path copy = Files.copy(file, outside.resolve(file.getFileName()));
      Files.createSymbolicLink(linked.resolve(file.getFileName()), copy);
    }
    // The reader will hold slot-0: without its index there, it serves nothing of the object.
    Files.move(index, index.resolveSibling("moved.index"));

    Metrics metrics = new Metrics();
    int getsBefore = store.gets().size();
    // Holding slot-0 (now empty of the object), with slot-1 and slot-2 to look at.
    try (PhysicalIO io = physicalIO(new DiskCaches(), metrics)) {
      assertArrayEquals(content, readWhole(io, etag, IMMUTABLE));
    }
    assertEquals(0, metrics.get(Metric.DISK_SHARED_BYTES_READ));
    assertEquals(2 * getsBefore, store.gets().size(), "read from the store, as the first time");
  }

  /** The length of the header {@code index} starts with: magic, name length, name, length, CRC. */
  private static int headerLength(byte[] index) {
    int magic = "SEEKWELL-DISK-1\n".length();
    return magic + 4 + ByteBuffer.wrap(index).getInt(magic) + 8 + 4;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private List<String> slots() throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
    }
  }

  private List<Path> dataFiles() throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(file -> file.toString().endsWith(".data")).sorted().toList();
    }
  }

  private Path only(String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      List<Path> found = files.filter(file -> file.toString().endsWith(suffix)).toList();
      assertEquals(1, found.size(), "files ending " + suffix + ": " + found);
      return found.get(0);
    }
  }
}
