package io.seekwell.orc;

import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.testing.hadoop.PositionalInputStream;
import io.seekwell.testing.hadoop.SourceFileSystem;
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
    return new PositionalInputStream(length) {
      @Override
      protected void readAt(long position, byte[] buffer, int offset, int count)
          throws IOException {
        stream.readFully(position, buffer, offset, count);
      }

      @Override
      public void close() {
        stream.close();
      }
    };
  }
}
