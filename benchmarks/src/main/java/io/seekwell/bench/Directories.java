package io.seekwell.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Local directories the benchmarks make and remove. */
public final class Directories {

  private Directories() {}

  /**
   * Empties {@code directory} for a measured run by moving it aside, to be deleted with {@link
   * #delete} once the run is measured: ext4 checks the inodes freed in the last seconds each time
   * it creates a file, so deleting a thousand files just before a run would charge their deletion
   * to the run's own file creation.
   *
   * @return the sibling named {@code NAME-previous} that now holds what {@code directory} held (it
   *     does not exist if {@code directory} did not), emptied of any earlier one first
   */
  public static Path moveAside(Path directory) throws IOException {
    Path aside = directory.resolveSibling(directory.getFileName() + "-previous");
    delete(aside);
    if (Files.exists(directory)) {
      Files.move(directory, aside);
    }
    return aside;
  }

  /** Deletes {@code directory} and everything in it, if it exists. */
  public static void delete(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
