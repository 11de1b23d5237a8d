package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.physical.PhysicalIOs;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A factory whose disk tier's directory cannot be used (all its slots are taken by other processes
 * or scopes, it cannot be created, its disk is full) reads every byte from the store and throws
 * nothing: it counts {@link Metric#DISK_UNAVAILABLE} once, writes no file, and the first such
 * factory of a directory in a scope logs one warning naming it and the reason. A slot another
 * process holds is passed over for the next.
 */
class DiskTierUnavailableTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 3 * MIB + 12_345;
  private static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "data/cold.parquet");

  @TempDir Path temporary;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(11, LENGTH);
  private final String etag = store.put(LOCATION, content);

  // The factories of each test share directories among themselves only.
  private final DiskCaches scope = new DiskCaches();

  /** What a factory in a directory read: its counters and the warnings that named the directory. */
  private record Outcome(Metrics metrics, List<String> warnings) {}

  /**
   * Reads the whole object, declared immutable, through a factory of its own over {@code
   * directory}, checking that it gets the object's bytes and that every byte it did not have from
   * disk was fetched once.
   */
  private Outcome readWhole(Path directory, UsableSpace space) throws IOException {
    return readWhole(DiskCacheConfiguration.in(directory, 64L * MIB), space);
  }

  /** As {@link #readWhole(Path, UsableSpace)}, with the disk tier {@code disk} configures. */
  private Outcome readWhole(DiskCacheConfiguration disk, UsableSpace space) throws IOException {
    return readWhole(disk, space, 0);
  }

  /**
   * As {@link #readWhole(DiskCacheConfiguration, UsableSpace)}, with the whole object written to
   * disk before the factory closes.
   */
  private Outcome writeWhole(DiskCacheConfiguration disk) throws IOException {
    return readWhole(disk, UsableSpace.FILE_STORE, LENGTH);
  }

  /**
   * As {@link #readWhole(DiskCacheConfiguration, UsableSpace)}, closing the factory once {@code
   * written} bytes are written to disk.
   */
  private Outcome readWhole(DiskCacheConfiguration disk, UsableSpace space, long written)
      throws IOException {
    Path directory = disk.directory().orElseThrow();
    Metrics metrics = new Metrics();
    int getsBefore = store.gets().size();
    PrintStream stderr = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try (PhysicalIO io =
            PhysicalIOs.withSpace(
                store,
                PhysicalIOConfiguration.DEFAULT,
                disk,
                scope,
                space,
                metrics,
                Ticker.system());
        ObjectReader reader = io.open(LOCATION, ObjectMetadata.of(LENGTH, etag), IMMUTABLE)) {
      byte[] bytes = new byte[LENGTH];
      int done = 0;
      while (done < LENGTH) {
        done += reader.read(done, bytes, done, LENGTH - done);
      }
      assertArrayEquals(content, bytes);
      DiskWrites.await(metrics, written);
    } finally {
      System.setErr(stderr);
    }
    List<GetRequest> gets = store.gets().subList(getsBefore, store.gets().size());
    assertEquals(
        LENGTH - metrics.get(Metric.DISK_BYTES_READ),
        gets.stream().mapToLong(get -> get.range().length()).sum(),
        "bytes the GETs asked for");
    List<String> warnings =
        printed
            .toString(StandardCharsets.UTF_8)
            .lines()
            .filter(line -> line.contains("WARN") && line.contains(directory.toString()))
            .toList();
    return new Outcome(metrics, warnings);
  }

  /** Checks that {@code outcome}'s factory read without the tier, and warned as {@code warned}. */
  private static void readWithoutTheTier(Outcome outcome, boolean warned, String reason) {
    assertEquals(1, outcome.metrics().get(Metric.DISK_UNAVAILABLE));
    assertEquals(0, outcome.metrics().get(Metric.DISK_BYTES_WRITTEN));
    assertEquals(0, outcome.metrics().get(Metric.DISK_BYTES_READ));
    assertEquals(0, outcome.metrics().get(Metric.DISK_MISSES), "blocks the tier was asked for");
    assertEquals(warned ? 1 : 0, outcome.warnings().size(), outcome.warnings().toString());
    outcome
        .warnings()
        .forEach(
            line -> {
              assertTrue(line.contains("physicalio.disk.cache.dir"), line);
              assertTrue(line.contains(reason), line);
            });
  }

  /** Checks that {@code outcome}'s factory used the tier and wrote the whole object to it. */
  private static void wroteTheObject(Outcome outcome) {
    assertEquals(0, outcome.metrics().get(Metric.DISK_UNAVAILABLE));
    assertEquals(LENGTH, outcome.metrics().get(Metric.DISK_BYTES_WRITTEN));
    assertEquals(List.of(), outcome.warnings());
  }

  /**
   * The files of cached objects in {@code directory}'s slots (not the locks, nor anything hidden).
   */
  private static List<Path> cachedFiles(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .toList();
    }
  }

  /** What a refused factory's warning says when all {@code slots} slots are taken. */
  private static String allTaken(int slots) {
    return "all "
        + slots
        + " of its slots are taken by other processes or scopes"
        + " ('physicalio.disk.cache.max.slots')";
  }

  @Test
  void aSlotHeldByAnotherProcessIsPassedOverAndOneSlotHeldIsAllTaken() throws Exception {
    Path directory = temporary.resolve("cache");
    DiskCacheConfiguration oneSlot =
        DiskCacheConfiguration.in(directory, 64L * MIB).withMaxSlots(1);
    try (LockHolderProcess other = LockHolderProcess.start(directory)) {
      assertEquals(List.of("slot-0"), other.slotsHeld());
      // The other process holds slot-0: this one takes slot-1.
      wroteTheObject(writeWhole(DiskCacheConfiguration.in(directory, 64L * MIB)));
      assertEquals(2, cachedFiles(directory.resolve("slot-1")).size(), "data and index");
      assertEquals(List.of(), cachedFiles(directory.resolve("slot-0")));
      // With one slot, it is taken.
      readWithoutTheTier(readWhole(oneSlot, UsableSpace.FILE_STORE), true, allTaken(1));
      // The next factory tries again, counts again, and does not warn again.
      readWithoutTheTier(readWhole(oneSlot, UsableSpace.FILE_STORE), false, allTaken(1));
    }
    wroteTheObject(writeWhole(oneSlot));
    assertEquals(2, cachedFiles(directory.resolve("slot-0")).size(), "data and index");
  }

  @Test
  void aScopeThatFindsTheSlotTakenLeavesTheHoldingScopesLockInPlace() throws Exception {
    Path directory = temporary.resolve("cache");
    DiskCacheConfiguration oneSlot =
        DiskCacheConfiguration.in(directory, 64L * MIB).withMaxSlots(1);
    try (PhysicalIO holding =
        new PhysicalIO(
            store,
            PhysicalIOConfiguration.DEFAULT,
            oneSlot,
            new DiskCaches(),
            new Metrics(),
            Ticker.system())) {
      assertEquals(0, holding.trackedObjects(), "it holds slot-0 and has read nothing");
      // Another scope of this process tries slot-0, finds it taken and reads without the tier.
      readWithoutTheTier(readWhole(oneSlot, UsableSpace.FILE_STORE), true, allTaken(1));
      try (LockHolderProcess other = LockHolderProcess.start(directory)) {
        assertEquals(List.of("slot-1"), other.slotsHeld(), "slot-0 is still locked");
      }
    }
  }

  @Test
  void aLockHeldInThisProcessWithoutAMarkIsTakenAndNotReleasedByAClaim() throws Exception {
    Path directory = temporary.resolve("cache");
    Path slot = Files.createDirectories(directory.resolve("slot-0"));
    // As a scope that held the lock without its mark would: the claim's tryLock overlaps it.
    try (FileChannel channel =
            FileChannel.open(
                slot.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      assertTrue(lock.isValid());
      Outcome outcome = writeWhole(DiskCacheConfiguration.in(directory, 64L * MIB));
      assertEquals(0, outcome.metrics().get(Metric.DISK_UNAVAILABLE));
      assertEquals(1, outcome.warnings().size(), outcome.warnings().toString());
      assertTrue(outcome.warnings().get(0).contains("left open"), outcome.warnings()::toString);
      assertEquals(2, cachedFiles(directory.resolve("slot-1")).size(), "data and index");
      try (LockHolderProcess other = LockHolderProcess.start(directory)) {
        assertEquals(List.of("slot-1"), other.slotsHeld(), "slot-0 is still locked");
      }
    }
  }

  @Test
  void allSlotsTakenByOtherScopesIsReadWithout() throws IOException {
    Path directory = temporary.resolve("cache");
    DiskCacheConfiguration twoSlots =
        DiskCacheConfiguration.in(directory, 64L * MIB).withMaxSlots(2);
    List<PhysicalIO> holders = new ArrayList<>();
    try {
      for (int slot = 0; slot < 2; slot++) {
        holders.add(
            new PhysicalIO(
                store,
                PhysicalIOConfiguration.DEFAULT,
                twoSlots,
                new DiskCaches(),
                new Metrics(),
                Ticker.system()));
      }
      readWithoutTheTier(readWhole(twoSlots, UsableSpace.FILE_STORE), true, allTaken(2));
      assertEquals(List.of(), cachedFiles(directory));
    } finally {
      holders.forEach(PhysicalIO::close);
    }
  }

  @Test
  void aDirectoryThatCannotBeCreatedIsReadWithout() throws IOException {
    Path file = Files.write(temporary.resolve("file"), new byte[] {1});
    Path directory = file.resolve("cache"); // under a regular file: even root cannot create it
    Outcome outcome = readWhole(directory, UsableSpace.FILE_STORE);
    readWithoutTheTier(outcome, true, "cannot be created");
    readWithoutTheTier(
        outcome, true, "all 4 of its slots were tried ('physicalio.disk.cache.max.slots')");
    assertFalse(Files.exists(directory));
  }

  @Test
  void aFullDiskAtStartIsReadWithoutAndLeftUnlocked() throws IOException {
    Path directory = temporary.resolve("cache");
    long tooFew = DiskDirectoryLock.MIN_USABLE_BYTES - 1;
    readWithoutTheTier(readWhole(directory, dir -> tooFew), true, tooFew + " bytes usable");
    assertEquals(List.of(), cachedFiles(directory));
    wroteTheObject(
        readWhole(
            DiskCacheConfiguration.in(directory, 64L * MIB),
            dir -> DiskDirectoryLock.MIN_USABLE_BYTES,
            LENGTH));
  }

  @Test
  void aDiskWhoseSpaceCannotBeToldIsReadWithout() throws IOException {
    Path directory = temporary.resolve("cache");
    UsableSpace failing =
        dir -> {
          throw new IOException("no answer from the file system");
        };
    readWithoutTheTier(readWhole(directory, failing), true, "no answer from the file system");
    assertEquals(List.of(), cachedFiles(directory));
  }
}
