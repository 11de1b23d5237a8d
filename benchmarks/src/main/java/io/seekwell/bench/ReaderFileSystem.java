package io.seekwell.bench;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A read-only Hadoop file system of one object, opened through a {@link ReadPath}'s readers, so
 * that ORC's reader reads through any library's stream (each open is a new stream). Its path is
 * {@code reader:///KEY}.
 */
final class ReaderFileSystem extends FileSystem {

  private static final URI ROOT = URI.create("reader:///");

  private final ReadPath readers;
  private final String key;
  private final long length;

  ReaderFileSystem(ReadPath readers, String key, long length) {
    this.readers = readers;
    this.key = key;
    this.length = length;
    setConf(new Configuration(false));
  }

  /** The object as ORC's reader is given it. */
  static OrcTable.Input orcInput(ReadPath readers, String key, long length) {
    return new OrcTable.Input(
        new ReaderFileSystem(readers, key, length),
        new Path(ROOT.resolve(key)),
        length,
        new Configuration(false));
  }

  private void check(Path path) throws FileNotFoundException {
    if (!path.toUri().getPath().equals("/" + key)) {
      throw new FileNotFoundException(path + ": only " + key + " is here");
    }
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    check(path);
    ReadPath.PositionalReader reader = readers.open(key, length);
    return new FSDataInputStream(
        new FSInputStream() {
          private long position;

          @Override
          public void seek(long to) throws IOException {
            reader.seek(to);
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
            int n = reader.read(buffer, offset, count);
            position += Math.max(n, 0);
            return n;
          }

          @Override
          public void close() throws IOException {
            reader.close();
          }
        });
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    check(path);
    return new FileStatus(length, false, 1, 32 << 20, 0, path);
  }

  @Override
  public FileStatus[] listStatus(Path path) throws IOException {
    return new FileStatus[] {getFileStatus(path)};
  }

  @Override
  public FSDataOutputStream create(
      Path path,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public FSDataOutputStream append(Path path, int bufferSize, Progressable progress) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public boolean rename(Path from, Path to) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public boolean delete(Path path, boolean recursive) {
    throw new UnsupportedOperationException("read-only");
  }

  @Override
  public void setWorkingDirectory(Path directory) {}

  @Override
  public Path getWorkingDirectory() {
    return new Path(ROOT);
  }

  @Override
  public boolean mkdirs(Path path, FsPermission permission) {
    throw new UnsupportedOperationException("read-only");
  }
}
