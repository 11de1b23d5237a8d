package io.seekwell.testing.hadoop;

import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A Hadoop input stream made of one operation, a read at a position: seeking only moves the
 * position, and every read, positioned or not, is a read at a position. Not thread-safe.
 */
public abstract class PositionalInputStream extends FSInputStream {

  private final long length;
  private long position;

  /** A stream over {@code length} bytes. */
  protected PositionalInputStream(long length) {
    this.length = length;
  }

  /**
   * Reads {@code count} bytes at {@code position} into {@code buffer} at {@code offset}; they are
   * all within the stream's length.
   */
  protected abstract void readAt(long position, byte[] buffer, int offset, int count)
      throws IOException;

  @Override
  public void seek(long to) throws IOException {
    if (to < 0 || to > length) {
      throw new EOFException("Cannot seek to " + to + " of " + length + " bytes");
    }
    position = to;
  }

  @Override
  public long getPos() {
    return position;
  }

  @Override
  public boolean seekToNewSource(long target) {
    return false;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int count) throws IOException {
    int n = read(position, buffer, offset, count);
    position += Math.max(n, 0);
    return n;
  }

  @Override
  public int read(long at, byte[] buffer, int offset, int count) throws IOException {
    if (at >= length) {
      return -1;
    }
    int n = (int) Math.min(count, length - at);
    if (n > 0) {
      readAt(at, buffer, offset, n);
    }
    return n;
  }

  @Override
  public void readFully(long at, byte[] buffer, int offset, int count) throws IOException {
    if (at < 0 || at + count > length) {
      throw new EOFException(count + " bytes at " + at + " pass the end, " + length);
    }
    if (count > 0) {
      readAt(at, buffer, offset, count);
    }
  }
}
