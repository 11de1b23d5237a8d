package io.seekwell.physical.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Another slot's index of one object version, as far as it was read: when the file has grown, only
 * its new records are read; when it is another file (evicted and written again) or shorter, it is
 * read from its start. Every index file under one name describes the same immutable bytes (the name
 * is their identity's digest, and the header is checked), so records read from an earlier file of
 * the name list right checksums too: at worst a granule the current data file lacks, which fails
 * its checksum and is fetched.
 *
 * <p>Thread-safe: {@link #refresh} runs under the object's monitor; the {@link GranuleIndex} it
 * returns may be read by several fills at once (see its notes), and a granule found bad is
 * forgotten in it.
 */
final class SharedIndex {

  /** Records beyond one per granule that an index may hold: granules written again. */
  private static final int REWRITES = 4;

  private final byte[] header;
  private final long length;
  private final long maxSize;
  private Object fileKey;
  private long readUpTo;
  private GranuleIndex index;

  /** The index of the object {@code identity} of {@code length} bytes. */
  SharedIndex(String identity, long length) {
    this.header = GranuleIndex.header(identity, length);
    this.length = length;
    long granules = (length + GranuleIndex.GRANULE - 1) / GranuleIndex.GRANULE;
    this.maxSize = header.length + granules * REWRITES * GranuleIndex.RECORD;
  }

  /**
   * The granules {@code file} (whose attributes, read without following links, are {@code
   * attributes}) lists now; none if it is not this object's index or is larger than one can be.
   */
  synchronized Optional<GranuleIndex> refresh(Path file, BasicFileAttributes attributes)
      throws IOException {
    long size = attributes.size();
    if (size > maxSize) {
      return Optional.empty();
    }
    if (index == null || !Objects.equals(attributes.fileKey(), fileKey) || size < readUpTo) {
      fileKey = attributes.fileKey();
      readUpTo = 0;
      index = new GranuleIndex(length);
    }
    if (size > readUpTo) {
      byte[] read = readFrom(file, readUpTo, (int) (size - readUpTo));
      int offset = 0;
      if (readUpTo == 0) {
        if (!GranuleIndex.startsWith(read, header)) {
          index = null; // another object's, or not yet whole: looked at again next time
          return Optional.empty();
        }
        offset = header.length;
      }
      readUpTo += offset + index.readRecords(read, offset);
    }
    return Optional.of(index);
  }

  private static byte[] readFrom(Path file, long position, int count) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(count);
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      while (bytes.hasRemaining() && channel.read(bytes, position + bytes.position()) >= 0) {
        // until the end of what the attributes said, or of the file
      }
    }
    return bytes.position() == count
        ? bytes.array()
        : Arrays.copyOf(bytes.array(), bytes.position());
  }
}
