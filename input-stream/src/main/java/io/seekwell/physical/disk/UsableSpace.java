package io.seekwell.physical.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the disk tier learns, when it starts, how many bytes it could still write. */
@FunctionalInterface
public interface UsableSpace {

  /** The answer of the directory's file system: {@link java.nio.file.FileStore#getUsableSpace}. */
  UsableSpace FILE_STORE = directory -> Files.getFileStore(directory).getUsableSpace();

  /** The bytes this process may still write in {@code directory}'s file system. */
  long bytesIn(Path directory) throws IOException;
}
