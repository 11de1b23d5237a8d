package io.seekwell.common.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * An {@link InputStream} whose subclasses implement only the bulk read: this class checks the
 * arguments, answers zero-length reads, and builds the single-byte {@link #read()} on top.
 */
public abstract class BulkReadInputStream extends InputStream {

  /** Creates the stream. */
  protected BulkReadInputStream() {}

  /**
   * Reads up to {@code length} bytes, at least one, into {@code buffer} at {@code offset}.
   *
   * @return the number of bytes read, at least 1, or -1 at the end of the stream
   */
  protected abstract int readBytes(byte[] buffer, int offset, int length) throws IOException;

  @Override
  public final int read(byte[] buffer, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    return length == 0 ? 0 : readBytes(buffer, offset, length);
  }

  @Override
  public final int read() throws IOException {
    byte[] one = new byte[1];
    int n;
    do {
      n = readBytes(one, 0, 1);
    } while (n == 0);
    return n < 0 ? -1 : one[0] & 0xFF;
  }
}
