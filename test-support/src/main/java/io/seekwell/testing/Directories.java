package io.seekwell.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What a directory holds, for tests that look at a disk tier's files. */
public final class Directories {

  private Directories() {}

  /** The names of the directories directly inside {@code directory}, sorted. */
  public static List<String> subdirectories(Path directory) throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries
          .filter(Files::isDirectory)
          .map(entry -> entry.getFileName().toString())
          .sorted()
          .toList();
    }
  }
}
