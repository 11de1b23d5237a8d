package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.physical.ObjectReader;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A seekable stream over one version of one S3 object, reading through its factory's shared cache.
 * Not thread-safe: use one stream per thread. Follows Hadoop's {@code FSDataInputStream} contract:
 * reads at the end return -1, seeks outside {@code [0, length]} and positional reads past the end
 * throw {@link EOFException}, bad buffer bounds throw {@link IndexOutOfBoundsException}, and every
 * call after {@link #close()} throws {@code IOException("Stream is closed")}.
 */
public final class S3SeekableInputStream extends SeekableInputStream {

  private final S3URI uri;
  private final ObjectReader reader;
  private final ReadStrategy strategy;
  private final long length;
  private final byte[] oneByte = new byte[1];
  private long position;
  private boolean closed;

  S3SeekableInputStream(S3URI uri, ObjectReader reader, ReadStrategy strategy) {
    this.uri = uri;
    this.reader = reader;
    this.strategy = strategy;
    this.length = reader.length();
  }

  /** The object this stream reads. */
  public S3URI uri() {
    return uri;
  }

  /** The object's length in bytes. */
  public long length() {
    return length;
  }

  @Override
  public int read() throws IOException {
    ensureOpen();
    if (position >= length) {
      return -1;
    }
    strategy.beforeRead(position, 1);
    reader.read(position, oneByte, 0, 1);
    position++;
    return oneByte[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int len) throws IOException {
    ensureOpen();
    Objects.checkFromIndexSize(offset, len, buffer.length);
    if (len == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    strategy.beforeRead(position, len);
    int n = reader.read(position, buffer, offset, len);
    position += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    ensureOpen();
    if (n <= 0) {
      return 0;
    }
    long skipped = Math.min(n, length - position);
    position += skipped;
    return skipped;
  }

  /** The number of bytes from the position on that are already cached. */
  @Override
  public int available() throws IOException {
    ensureOpen();
    return position >= length ? 0 : reader.availableFrom(position);
  }

  @Override
  public void seek(long newPosition) throws IOException {
    ensureOpen();
    if (newPosition < 0) {
      throw new EOFException("Cannot seek to a negative position " + newPosition + " in " + uri);
    }
    if (newPosition > length) {
      throw new EOFException(
          "Cannot seek to " + newPosition + ": " + uri + " has " + length + " bytes");
    }
    position = newPosition;
  }

  @Override
  public long getPos() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public void readFully(long start, byte[] buffer, int offset, int len) throws IOException {
    ensureOpen();
    Objects.checkFromIndexSize(offset, len, buffer.length);
    checkWithinObject(start, len);
    readExactly(start, buffer, offset, len);
  }

  @Override
  public int readTail(byte[] buffer, int offset, int len) throws IOException {
    ensureOpen();
    Objects.checkFromIndexSize(offset, len, buffer.length);
    if (len > length) {
      throw new EOFException(
          "Cannot read the last " + len + " bytes of " + uri + ": it has " + length);
    }
    readExactly(length - len, buffer, offset, len);
    return len;
  }

  /**
   * Reads several ranges. Each range's future completes with a buffer from {@code allocate} holding
   * exactly its bytes (position 0, limit the range's length), or exceptionally; buffers of failed
   * ranges are handed to {@code release}. A range past the end of the object fails its own future
   * with {@link EOFException}. The stream's position is unchanged.
   *
   * @throws IllegalArgumentException if a range has a negative offset or length, or two overlap
   */
  public void readVectored(
      List<ObjectRange> ranges, IntFunction<ByteBuffer> allocate, Consumer<ByteBuffer> release)
      throws IOException {
    ensureOpen();
    Objects.requireNonNull(allocate, "allocate");
    Objects.requireNonNull(release, "release");
    List<ObjectRange> sorted = validated(ranges);
    for (ObjectRange range : sorted) {
      if (range.getLength() > 0 && range.getOffset() + range.getLength() <= length) {
        reader.prefetch(ByteRange.ofLength(range.getOffset(), range.getLength()));
      }
    }
    for (ObjectRange range : sorted) {
      readRange(range, allocate, release);
    }
  }

  private List<ObjectRange> validated(List<ObjectRange> ranges) {
    Objects.requireNonNull(ranges, "ranges");
    List<ObjectRange> sorted = new ArrayList<>(ranges);
    for (ObjectRange range : sorted) {
      Objects.requireNonNull(range, "range");
      if (range.getOffset() < 0 || range.getLength() < 0) {
        throw new IllegalArgumentException("Invalid range " + range + " for " + uri);
      }
    }
    sorted.sort(Comparator.comparingLong(ObjectRange::getOffset));
    for (int i = 1; i < sorted.size(); i++) {
      ObjectRange previous = sorted.get(i - 1);
      if (previous.getOffset() + previous.getLength() > sorted.get(i).getOffset()) {
        throw new IllegalArgumentException(
            "Overlapping ranges " + previous + " and " + sorted.get(i) + " for " + uri);
      }
    }
    return sorted;
  }

  private void readRange(
      ObjectRange range, IntFunction<ByteBuffer> allocate, Consumer<ByteBuffer> release) {
    if (range.getOffset() + range.getLength() > length) {
      range
          .getByteBuffer()
          .completeExceptionally(
              new EOFException(
                  "Range " + range + " reaches past the end of " + uri + " (" + length + ")"));
      return;
    }
    ByteBuffer buffer = allocate.apply(range.getLength());
    try {
      int start = buffer.position();
      if (buffer.hasArray()) {
        readExactly(
            range.getOffset(), buffer.array(), buffer.arrayOffset() + start, range.getLength());
      } else {
        byte[] bytes = new byte[range.getLength()];
        readExactly(range.getOffset(), bytes, 0, range.getLength());
        buffer.put(bytes);
      }
      buffer.position(start).limit(start + range.getLength());
      range.getByteBuffer().complete(buffer);
    } catch (IOException | RuntimeException e) {
      release.accept(buffer);
      range.getByteBuffer().completeExceptionally(e);
    }
  }

  private void readExactly(long start, byte[] buffer, int offset, int len) throws IOException {
    int done = 0;
    while (done < len) {
      done += reader.read(start + done, buffer, offset + done, len - done);
    }
  }

  private void checkWithinObject(long start, int len) throws EOFException {
    if (start < 0) {
      throw new EOFException("Cannot read at a negative position " + start + " in " + uri);
    }
    if (start + len > length) {
      throw new EOFException(
          "Cannot read " + len + " bytes at " + start + ": " + uri + " has " + length + " bytes");
    }
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("Stream is closed: " + uri);
    }
  }

  /** Releases the stream's hold on the object; closing twice does nothing. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      reader.close();
    }
  }
}
