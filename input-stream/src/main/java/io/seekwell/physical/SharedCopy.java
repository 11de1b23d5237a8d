package io.seekwell.physical;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * An object version as another slot of the directory holds it, read only: its index as it was when
 * opened, and its data file, read with positional reads (never mapped, so that its holder's
 * eviction cannot fault this process). Its holder may append granules, evict the object or write it
 * again meanwhile; a granule counts only if listed when the index was read and its bytes match the
 * checksum, so none of that makes it serve a wrong byte. Belongs to one fill on one thread; closing
 * closes the data file.
 */
final class SharedCopy implements GranuleSource, AutoCloseable {

  private final Path data;
  private final GranuleIndex index;
  private FileChannel channel;

  private SharedCopy(Path data, GranuleIndex index) {
    this.data = data;
    this.index = index;
  }

  /**
   * The copy of the object {@code identity} of {@code length} bytes in {@code slot}, stored under
   * {@code name}; none if the slot holds none, or holds an index that names another object.
   *
   * @throws IOException if the index exists and cannot be read
   */
  static Optional<SharedCopy> open(Path slot, String name, String identity, long length)
      throws IOException {
    byte[] stored;
    try {
      stored = Files.readAllBytes(DiskDirectory.indexFile(slot, name));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    byte[] header = GranuleIndex.header(identity, length);
    if (!GranuleIndex.startsWith(stored, header)) {
      return Optional.empty();
    }
    GranuleIndex index = new GranuleIndex(length);
    index.readRecords(stored, header.length);
    return Optional.of(new SharedCopy(DiskDirectory.dataFile(slot, name), index));
  }

  @Override
  public int read(int granule, byte[] array, int offset, int length, Runnable onBad)
      throws IOException {
    int size = index.runLength(granule, length, DiskObject.MAX_RUN, Long.MAX_VALUE);
    if (size == 0) {
      return 0;
    }
    ByteBuffer target = ByteBuffer.wrap(array, offset, size);
    long start = GranuleIndex.startOf(granule);
    FileChannel file = channel();
    while (target.hasRemaining()) {
      if (file.read(target, start + target.position() - offset) < 0) {
        break;
      }
    }
    int good = index.checkedLength(granule, array, offset, target.position() - offset);
    if (good < size) {
      onBad.run();
    }
    return good;
  }

  @Override
  public int lengthOf(int granule) {
    return index.lengthOf(granule);
  }

  private FileChannel channel() throws IOException {
    if (channel == null) {
      try {
        channel = FileChannel.open(data, StandardOpenOption.READ);
      } catch (NoSuchFileException e) {
        // Evicted by its holder since the index was read: the GET serves it.
        ClosedChannelException evicted = new ClosedChannelException();
        evicted.initCause(e);
        throw evicted;
      }
    }
    return channel;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
