package io.seekwell.bench;

import java.io.Closeable;
import java.io.IOException;
import org.apache.parquet.io.InputFile;

/**
 * One way of reading objects that the benchmark compares: a fresh instance per iteration (cold
 * caches), built on an SDK client whose requests a {@link RequestCounter} counts.
 */
interface ReadPath extends Closeable {

  /** A positional reader over {@code key}, whose length the caller knows. */
  PositionalReader open(String key, long length) throws IOException;

  /** A Parquet input file over {@code key}, whose length the caller knows. */
  InputFile parquetFile(String key, long length) throws IOException;

  /** What the workloads need of a stream. */
  interface PositionalReader extends Closeable {
    int read(byte[] buffer, int offset, int length) throws IOException;

    void seek(long position) throws IOException;
  }
}
