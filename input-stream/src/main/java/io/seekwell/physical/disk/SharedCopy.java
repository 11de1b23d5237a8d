package io.seekwell.physical.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;

/**
 * An object version as another slot of the directory holds it, read only: the granules its index
 * listed ({@link SharedIndex}), and its data file, read with positional reads (never mapped, so
 * that its holder's eviction cannot fault this process). Its holder may append granules, evict the
 * object or write it again meanwhile; a granule counts only if it was listed and its bytes match
 * the checksum, so none of that makes it serve a wrong byte. Only regular files of this process's
 * user are opened, never through a link. Belongs to one fill on one thread; closing closes the data
 * file.
 */
final class SharedCopy implements GranuleSource, AutoCloseable {

  private final Path data;
  private final GranuleIndex index;
  private final UserPrincipal user;
  private FileChannel channel;

  /** The granules {@code index} lists, of the data file {@code data}, which {@code user} owns. */
  SharedCopy(Path data, GranuleIndex index, UserPrincipal user) {
    this.data = data;
    this.index = index;
    this.user = user;
  }

  /**
   * Whether {@code file}, whose attributes are {@code attributes}, is a regular file {@code user}
   * owns, looked at without following links.
   */
  static boolean isOwnRegularFile(Path file, BasicFileAttributes attributes, UserPrincipal user)
      throws IOException {
    return attributes.isRegularFile()
        && user.equals(Files.getOwner(file, LinkOption.NOFOLLOW_LINKS));
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
    if (good < size && index.forget(GranuleIndex.granuleOf(start + good))) {
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
        BasicFileAttributes attributes =
            Files.readAttributes(data, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!isOwnRegularFile(data, attributes, user)) {
          throw new IOException(data + " is not a regular file of " + user.getName());
        }
        channel = FileChannel.open(data, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
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
