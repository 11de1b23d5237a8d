package io.seekwell.testing.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
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
 * A read-only Hadoop file system over named sources of bytes, so that a format's own reader (ORC's,
 * Parquet's) reads through streams its user chooses: a Seekwell stream, another library's, one that
 * records what is read. Paths are {@code src:///NAME}. Thread-safe if its sources are.
 */
public final class SourceFileSystem extends FileSystem {

  /** One file: its length, and a new stream over it for each open. */
  public interface Source {
    long length();

    FSInputStream open() throws IOException;
  }

  private static final URI ROOT = URI.create("src:///");

  private final Map<String, Source> sources;

  /** Serves {@code sources} by name. */
  public SourceFileSystem(Map<String, Source> sources) {
    this.sources = sources;
    setConf(new Configuration(false));
  }

  /** The path of the source named {@code name}. */
  public static Path path(String name) {
    return new Path(ROOT.resolve(name));
  }

  private Source source(Path path) throws FileNotFoundException {
    Source source = sources.get(path.getName());
    if (source == null) {
      throw new FileNotFoundException(path.toString());
    }
    return source;
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  @Override
  public FSDataInputStream open(Path path, int bufferSize) throws IOException {
    return new FSDataInputStream(source(path).open());
  }

  @Override
  public FileStatus getFileStatus(Path path) throws IOException {
    return new FileStatus(source(path).length(), false, 1, 1 << 20, 0, path);
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
