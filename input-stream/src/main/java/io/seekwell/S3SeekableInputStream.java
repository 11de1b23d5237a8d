package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.physical.ObjectReader;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A seekable stream over one version of one S3 object, reading through its factory's shared cache.
 * The position-moving calls ({@code read}, {@code seek}, {@code skip}) are for one thread at a
 * time; the positional calls ({@link #readFully(long, byte[], int, int)}, {@link #readTail} and
 * {@link #readVectored}) may come from many threads at once, as Hadoop's {@code PositionedReadable}
 * requires, and never move the position. Follows Hadoop's {@code FSDataInputStream} contract: reads
 * at the end return -1, seeks outside {@code [0, length]} and positional reads past the end throw
 * {@link EOFException}, bad buffer bounds throw {@link IndexOutOfBoundsException}, and every call
 * after {@link #close()} throws {@code IOException("Stream is closed")}.
 */
public final class S3SeekableInputStream extends SeekableInputStream {

  private final S3URI uri;
  private final ObjectReader reader;
  private final ReadStrategy strategy;
  private final VectoredReads vectored;
  private final long length;
  private final byte[] oneByte = new byte[1];

  /** Serializes the calls to the strategy (one per stream: strategies may be shared singletons). */
  private final Object strategyLock = new Object();

  private long position;
  private volatile boolean closed;

  S3SeekableInputStream(
      S3URI uri, ObjectReader reader, ReadStrategy strategy, VectoredReads vectored) {
    this.uri = uri;
    this.vectored = vectored;
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

  /**
   * The ETag of the object version this stream reads. Empty for a stream opened knowing only the
   * length ({@link OpenStreamInformation.Builder#objectLength(long)}) until its first GET answers.
   */
  public Optional<String> etag() {
    return reader.etag();
  }

  @Override
  public int read() throws IOException {
    ensureOpen();
    if (position >= length) {
      return -1;
    }
    synchronized (strategyLock) {
      strategy.beforeRead(position, 1);
    }
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
    synchronized (strategyLock) {
      strategy.beforeRead(position, len);
    }
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
    synchronized (strategyLock) {
      strategy.beforePositionalRead(start, len);
    }
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
    synchronized (strategyLock) {
      strategy.beforePositionalRead(length - len, len);
    }
    readExactly(length - len, buffer, offset, len);
    return len;
  }

  /**
   * Reads several ranges. Ranges close to each other are fetched together, all GETs are sent at
   * once, and each range's future completes as soon as its own bytes are in, with a buffer from
   * {@code allocate} holding exactly its bytes between its position and limit; buffers of failed
   * ranges are handed to {@code release}. A range past the end of the object fails its own future
   * with {@link EOFException}. The stream's position is unchanged.
   *
   * @return how many runs the ranges were merged into (each is then fetched in parts of at most the
   *     target request size, or found in the cache)
   * @throws IllegalArgumentException if a range has a negative offset or length, or two overlap
   */
  public int readVectored(
      List<ObjectRange> ranges, IntFunction<ByteBuffer> allocate, Consumer<ByteBuffer> release)
      throws IOException {
    ensureOpen();
    Objects.requireNonNull(allocate, "allocate");
    Objects.requireNonNull(release, "release");
    List<ObjectRange> sorted = VectoredReads.validated(uri, ranges);
    List<ByteRange> readable =
        sorted.stream()
            .filter(
                range -> range.getLength() > 0 && range.getLength() <= length - range.getOffset())
            .map(range -> ByteRange.ofLength(range.getOffset(), range.getLength()))
            .toList();
    synchronized (strategyLock) {
      strategy.beforeVectoredRead(readable);
    }
    return vectored.read(uri, reader, sorted, allocate, release);
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
    if (len > length - start) {
      throw new EOFException(
          "Cannot read " + len + " bytes at " + start + ": " + uri + " has " + length + " bytes");
    }
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("Stream is closed: " + uri);
    }
  }

  /**
   * Stops the stream's read strategy (no GET starts for it afterwards) and releases its hold on the
   * object; closing twice does nothing.
   */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      reader.close();
      synchronized (strategyLock) {
        strategy.close();
      }
    }
  }
}
