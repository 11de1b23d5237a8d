package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoriesTest {

  @TempDir Path root;

  @Test
  void aDirectoryMovedAsideLeavesItsPlaceEmptyAndReplacesTheOneMovedAsideBefore() throws Exception {
    Path tier = root.resolve("tier");
    Files.createDirectories(tier.resolve("objects"));
    Files.writeString(tier.resolve("objects/first"), "first");

    Path aside = Directories.moveAside(tier);
    assertFalse(Files.exists(tier));
    assertEquals("first", Files.readString(aside.resolve("objects/first")));

    Files.createDirectories(tier);
    Files.writeString(tier.resolve("second"), "second");
    assertEquals(aside, Directories.moveAside(tier));
    assertFalse(Files.exists(aside.resolve("objects")));
    assertEquals("second", Files.readString(aside.resolve("second")));

    Directories.delete(aside);
    assertFalse(Files.exists(aside));
    assertEquals(aside, Directories.moveAside(tier), "nothing to move");
    assertFalse(Files.exists(aside));
  }
}
