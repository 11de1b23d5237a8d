package io.seekwell.orc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random subsets of columns of files with one schema, read one after another by ORC's own reader
 * through one factory, so that what earlier tries taught is prefetched for later ones (whole
 * stripes, single streams, a mix): every value equals a read of the same bytes in memory.
 */
class OrcRandomColumnsPropertyTest {

  private static final int COLUMNS = 12;
  private static final int FILES = 3;

  private static Path dir;
  private static CountedOrcReads reads;

  @BeforeContainer
  static void writeFiles() throws IOException {
    dir = Files.createTempDirectory("orc-property");
    List<byte[]> files = new ArrayList<>();
    for (int i = 0; i < FILES; i++) {
      files.add(
          OrcFiles.writeMixed(dir.resolve("part-" + i + ".orc"), COLUMNS, 12_000, 128 * 1024, i));
    }
    // A merge gap of 4 KB: some learned columns are merged, some are not.
    reads = new CountedOrcReads(files, "4KB");
  }

  @AfterContainer
  static void close() throws IOException {
    reads.close();
    try (var paths = Files.list(dir)) {
      for (Path path : paths.toList()) {
        Files.delete(path);
      }
    }
    Files.delete(dir);
  }

  @Provide
  Arbitrary<boolean[]> columnSubsets() {
    return Arbitraries.integers()
        .between(1, (1 << COLUMNS) - 1)
        .map(
            mask -> {
              boolean[] include = new boolean[COLUMNS + 1];
              include[0] = true;
              for (int column = 0; column < COLUMNS; column++) {
                include[column + 1] = (mask & 1 << column) != 0;
              }
              return include;
            });
  }

  @Property(tries = 40)
  void everyValueOfRandomColumnsEqualsAReadInMemory(
      @ForAll("columnSubsets") boolean[] include, @ForAll @IntRange(max = FILES - 1) int file)
      throws IOException {
    reads.read(file, include);
  }
}
