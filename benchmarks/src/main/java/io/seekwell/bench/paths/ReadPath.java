package io.seekwell.bench.paths;

import io.seekwell.bench.store.RequestCounter;
import io.seekwell.common.metrics.MetricsSnapshot;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.apache.parquet.io.InputFile;

/**
 * One way of reading objects that the benchmarks compare: a fresh instance per iteration (cold
 * caches), built on an SDK client whose requests a {@link RequestCounter} counts. The concurrent
 * workloads and the soak open readers from several threads at once; each reader is read by one
 * thread.
 */
public interface ReadPath extends Closeable {

  /** A positional reader over {@code key}, whose length the caller knows. */
  PositionalReader open(String key, long length) throws IOException;

  /** A Parquet input file over {@code key}, whose length the caller knows. */
  InputFile parquetFile(String key, long length) throws IOException;

  /**
   * The ORC file {@code key}, whose length the caller knows, as ORC's reader is given it: by
   * default a file system that opens this path's readers.
   */
  default OrcInput orcFile(String key, long length) throws IOException {
    return ReaderFileSystem.orcInput(this, key, length);
  }

  /**
   * A task over {@code keys}: its Parquet input files, all made before any is read, as an engine's
   * task names its files before it reads them (Spark's Iceberg reader creates its task's input
   * files first). Closing the task ends it (a path that announced the files withdraws them).
   */
  default Task task(List<String> keys, ToLongFunction<String> lengths) throws IOException {
    List<InputFile> files = new ArrayList<>(keys.size());
    for (String key : keys) {
      files.add(parquetFile(key, lengths.applyAsLong(key)));
    }
    return new Task(files, () -> {});
  }

  /** A task's input files, and what closing the task does. */
  record Task(List<InputFile> files, Closeable end) implements Closeable {
    @Override
    public void close() throws IOException {
      end.close();
    }
  }

  /** Seekwell's counters, for a path that reads through a Seekwell factory it can reach. */
  default Optional<MetricsSnapshot> seekwellMetrics() {
    return Optional.empty();
  }

  /** What the workloads need of a stream. */
  interface PositionalReader extends Closeable {
    int read(byte[] buffer, int offset, int length) throws IOException;

    void seek(long position) throws IOException;

    /**
     * A reader over any library's stream: reads and closes {@code stream}, seeks with {@code seek}.
     */
    static PositionalReader over(InputStream stream, Seek seek) {
      return new PositionalReader() {
        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
          return stream.read(buffer, offset, length);
        }

        @Override
        public void seek(long position) throws IOException {
          seek.seek(position);
        }

        @Override
        public void close() throws IOException {
          stream.close();
        }
      };
    }
  }

  /** Moves a stream's position. */
  interface Seek {
    void seek(long position) throws IOException;
  }
}
