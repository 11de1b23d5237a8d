package io.seekwell.bench.paths;

import io.seekwell.testing.hadoop.PositionalInputStream;
import io.seekwell.testing.hadoop.SourceFileSystem;
import java.io.EOFException;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSInputStream;

/**
 * One object as ORC's reader is given it through a {@link ReadPath}'s readers: a Hadoop file system
 * whose every open is a new reader of the path, read at positions (a seek, then a read).
 */
final class ReaderFileSystem {

  private ReaderFileSystem() {}

  /** The object {@code key} of {@code length} bytes, read through {@code readers}. */
  static OrcInput orcInput(ReadPath readers, String key, long length) {
    SourceFileSystem.Source source =
        new SourceFileSystem.Source() {
          @Override
          public long length() {
            return length;
          }

          @Override
          public FSInputStream open() throws IOException {
            ReadPath.PositionalReader reader = readers.open(key, length);
            return new PositionalInputStream(length) {
              @Override
              protected void readAt(long position, byte[] buffer, int offset, int count)
                  throws IOException {
                reader.seek(position);
                for (int done = 0; done < count; ) {
                  int n = reader.read(buffer, offset + done, count - done);
                  if (n < 0) {
                    throw new EOFException(key + ": ended at " + (position + done));
                  }
                  done += n;
                }
              }

              @Override
              public void close() throws IOException {
                reader.close();
              }
            };
          }
        };
    String name = key.replace('/', '_');
    return new OrcInput(
        new SourceFileSystem(Map.of(name, source)),
        SourceFileSystem.path(name),
        length,
        new Configuration(false));
  }
}
