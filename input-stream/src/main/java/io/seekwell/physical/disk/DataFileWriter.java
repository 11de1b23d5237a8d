package io.seekwell.physical.disk;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Writes granules into a {@link DiskObject}'s data file, on the disk tier's one writer thread: the
 * bytes of consecutive granules are copied into the thread's staging buffer and written from it, up
 * to {@link DiskObject#MAX_RUN} per system call, zero-padded to whole alignment units. Stateless.
 */
final class DataFileWriter {

  private DataFileWriter() {}

  /**
   * How the writer thread writes: through {@code buffer} (its own; direct, aligned to {@code
   * alignment}, at least {@link DiskObject#MAX_RUN} plus one alignment unit long), with direct I/O
   * if {@code direct}, in whole units of {@code alignment}.
   */
  record Staging(ByteBuffer buffer, int alignment, boolean direct) {}

  /**
   * Writes whole granules, each given as the buffers that hold its bytes in order (ascending), at
   * their offsets in {@code data}; {@code index} tells each granule's length. The file is open only
   * during the call.
   *
   * @return the CRC32C of each granule written, in order
   * @throws IllegalStateException if a granule is given more or fewer bytes than it has
   */
  static Map<Integer, Integer> write(
      Path data, Map<Integer, List<ByteBuffer>> granules, GranuleIndex index, Staging staging)
      throws IOException {
    try (FileChannel channel = open(data, staging.direct())) {
      return write(channel, granules, index, staging.buffer(), staging.alignment());
    }
  }

  private static Map<Integer, Integer> write(
      FileChannel channel,
      Map<Integer, List<ByteBuffer>> granules,
      GranuleIndex index,
      ByteBuffer staging,
      int alignment)
      throws IOException {
    Map<Integer, Integer> written = new LinkedHashMap<>();
    staging.clear();
    long runStart = 0;
    for (Map.Entry<Integer, List<ByteBuffer>> entry : granules.entrySet()) {
      int granule = entry.getKey();
      long start = GranuleIndex.startOf(granule);
      if (runStart + staging.position() != start || staging.position() >= DiskObject.MAX_RUN) {
        writeStaged(channel, runStart, staging, alignment);
        runStart = start;
      }
      CRC32C crc = new CRC32C();
      long given = 0;
      for (ByteBuffer part : entry.getValue()) {
        crc.update(part.duplicate());
        given += part.remaining();
        staging.put(part.duplicate());
      }
      if (given != index.lengthOf(granule)) {
        throw new IllegalStateException("Granule " + granule + " was given " + given + " bytes");
      }
      written.put(granule, (int) crc.getValue());
    }
    writeStaged(channel, runStart, staging, alignment);
    return written;
  }

  /**
   * Writes the bytes staged so far at {@code position} of the data file, zero-padded to a whole
   * {@code alignment} unit (only an object's last granule is not whole: the padding lies past the
   * object's end), and empties {@code staging}.
   */
  private static void writeStaged(
      FileChannel channel, long position, ByteBuffer staging, int alignment) throws IOException {
    if (staging.position() == 0) {
      return;
    }
    while (staging.position() % alignment != 0) {
      staging.put((byte) 0);
    }
    staging.flip();
    while (staging.hasRemaining()) {
      channel.write(staging, position + staging.position());
    }
    staging.clear();
  }

  /**
   * The data file opened for writing; with {@code direct} I/O the tier's bytes skip the page
   * cache's copy and its writeback, and the kernel drops the range from the page cache for the
   * reads that follow.
   */
  private static FileChannel open(Path data, boolean direct) throws IOException {
    return direct
        ? FileChannel.open(
            data, StandardOpenOption.CREATE, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)
        : FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }
}
