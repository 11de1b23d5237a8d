package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk tier's objects in least-recently-used order, against a real directory. */
class DiskObjectsTest {

  @TempDir Path path;

  private DiskDirectory directory;

  @AfterEach
  void release() {
    if (directory != null) {
      directory.release();
    }
  }

  private DiskObjects objects() throws IOException, DiskUnavailableException {
    directory = DiskDirectory.open(path, UsableSpace.FILE_STORE, channel -> {}).orElseThrow();
    return new DiskObjects(directory, directory.recover());
  }

  @Test
  void evictionTakesTheObjectUsedLeastRecently() throws Exception {
    DiskObjects objects = objects();
    DiskObject a = objects.useOrCreate("a");
    DiskObject b = objects.useOrCreate("b");
    DiskObject c = objects.useOrCreate("c");
    assertSame(a, objects.use("a"));
    assertSame(b, objects.find("b")); // looking is not using

    assertSame(b, objects.evictColdest());
    assertSame(c, objects.evictColdest());
    assertNull(objects.find("c"));
    assertSame(a, objects.evictColdest());
    assertNull(objects.evictColdest());
  }

  @Test
  void objectsListedAtStartAreOlderThanAnyUsedSinceAndCountTheirIndexes() throws Exception {
    Files.write(path.resolve("old.index"), new byte[3 * GranuleIndex.RECORD]);
    Files.write(path.resolve("orphan.data"), new byte[10]);
    Files.write(path.resolve(".direct123.probe"), new byte[0]);
    DiskObjects objects = objects();
    assertEquals(3L * GranuleIndex.GRANULE, objects.storedBytes());
    assertEquals(
        List.of(new DiskDirectory.Listed("old", 3L * GranuleIndex.GRANULE)), directory.recover());
    assertFalse(Files.exists(path.resolve("orphan.data")), "a data file without index");
    assertFalse(Files.exists(path.resolve(".direct123.probe")), "a probe a crash left");
    DiskObject fresh = objects.useOrCreate("fresh");
    assertSame(objects.find("old"), objects.evictColdest());
    assertSame(fresh, objects.evictColdest());
  }
}
