package io.seekwell.orc;

import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSInputStream;

/**
 * An ORC file as a Seekwell factory's streams read it: each open is a new stream, read with
 * positional reads as ORC's reader issues them (a vectored read becomes positional reads in order,
 * as Hadoop's default does).
 */
record SeekwellSource(S3SeekableInputStreamFactory factory, S3URI uri, long length)
    implements SourceFileSystem.Source {

  @Override
  public FSInputStream open() throws IOException {
    S3SeekableInputStream stream = factory.createStream(uri);
    return new FSInputStream() {
      @Override
      public void seek(long position) throws IOException {
        stream.seek(position);
      }

      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public boolean seekToNewSource(long position) {
        return false;
      }

      @Override
      public int read() throws IOException {
        return stream.read();
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        return stream.read(buffer, offset, length);
      }

      @Override
      public int read(long position, byte[] buffer, int offset, int length) throws IOException {
        if (position >= stream.length()) {
          return -1;
        }
        int n = (int) Math.min(length, stream.length() - position);
        stream.readFully(position, buffer, offset, n);
        return n;
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        if (position + length > stream.length()) {
          throw new EOFException(uri + ": " + length + " bytes at " + position + " pass the end");
        }
        stream.readFully(position, buffer, offset, length);
      }

      @Override
      public void close() {
        stream.close();
      }
    };
  }
}
