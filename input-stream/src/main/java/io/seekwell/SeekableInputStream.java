package io.seekwell;

import java.io.IOException;
import java.io.InputStream;

/** An {@link InputStream} with a position that can be moved and positional reads. */
public abstract class SeekableInputStream extends InputStream {

  /** Creates the stream. */
  protected SeekableInputStream() {}

  /**
   * Moves the position to {@code position}; the next read starts there.
   *
   * @throws java.io.EOFException if {@code position} is negative or past the end
   */
  public abstract void seek(long position) throws IOException;

  /** The position of the next byte {@link #read()} returns. */
  public abstract long getPos() throws IOException;

  /**
   * Reads exactly {@code length} bytes starting at {@code position} into {@code buffer}, without
   * moving the stream's position.
   *
   * @throws java.io.EOFException if the object ends before {@code position + length}
   */
  public abstract void readFully(long position, byte[] buffer, int offset, int length)
      throws IOException;

  /**
   * Reads the last {@code length} bytes of the object into {@code buffer}, without moving the
   * stream's position.
   *
   * @return {@code length}
   * @throws java.io.EOFException if the object is shorter than {@code length}
   */
  public abstract int readTail(byte[] buffer, int offset, int length) throws IOException;
}
