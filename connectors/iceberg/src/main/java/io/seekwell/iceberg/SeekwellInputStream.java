package io.seekwell.iceberg;

import io.seekwell.ObjectRange;
import io.seekwell.S3SeekableInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIOMetricsContext;
import org.apache.iceberg.io.FileRange;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.metrics.Counter;
import org.apache.iceberg.metrics.MetricsContext;

/**
 * An Iceberg stream over a Seekwell stream: positional reads ({@link #readFully}, {@link
 * #readTail}) and vectored reads ({@link #readVectored}), which Iceberg's Parquet reader uses, go
 * to Seekwell's cached, coalesced reads. Reports Iceberg's {@code read.bytes} and {@code
 * read.operations}. A missing object raises Iceberg's {@link NotFoundException}. Not thread-safe,
 * like any stream.
 */
final class SeekwellInputStream extends SeekableInputStream implements RangeReadable {

  private final S3SeekableInputStream stream;
  private final String location;
  private final Counter readBytes;
  private final Counter readOperations;

  SeekwellInputStream(S3SeekableInputStream stream, String location, MetricsContext metrics) {
    this.stream = stream;
    this.location = location;
    this.readBytes = metrics.counter(FileIOMetricsContext.READ_BYTES, MetricsContext.Unit.BYTES);
    this.readOperations = metrics.counter(FileIOMetricsContext.READ_OPERATIONS);
  }

  @Override
  public long getPos() throws IOException {
    return stream.getPos();
  }

  @Override
  public void seek(long newPos) throws IOException {
    stream.seek(newPos);
  }

  @Override
  public int read() throws IOException {
    int b;
    try {
      b = stream.read();
    } catch (FileNotFoundException e) {
      throw notFound(e);
    }
    if (b >= 0) {
      counted(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n;
    try {
      n = stream.read(buffer, offset, length);
    } catch (FileNotFoundException e) {
      throw notFound(e);
    }
    if (n > 0) {
      counted(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    return stream.skip(n);
  }

  @Override
  public int available() throws IOException {
    return stream.available();
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    try {
      stream.readFully(position, buffer, offset, length);
    } catch (FileNotFoundException e) {
      throw notFound(e);
    }
    counted(length);
  }

  @Override
  public int readTail(byte[] buffer, int offset, int length) throws IOException {
    int n;
    try {
      n = stream.readTail(buffer, offset, length);
    } catch (FileNotFoundException e) {
      throw notFound(e);
    }
    counted(n);
    return n;
  }

  /**
   * Reads every range with Seekwell's vectored read: ranges close together share one GET, all are
   * requested at once, and each range's future completes when its bytes have arrived.
   *
   * @throws IllegalArgumentException if ranges overlap or lie outside the file
   */
  @Override
  public void readVectored(List<FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    List<ObjectRange> seekwellRanges = new ArrayList<>(ranges.size());
    long bytes = 0;
    for (FileRange range : ranges) {
      seekwellRanges.add(new ObjectRange(range.byteBuffer(), range.offset(), range.length()));
      bytes += range.length();
    }
    try {
      stream.readVectored(seekwellRanges, allocate, buffer -> {});
    } catch (FileNotFoundException e) {
      throw notFound(e);
    }
    readBytes.increment(bytes);
    readOperations.increment(ranges.size());
  }

  @Override
  public void close() throws IOException {
    stream.close();
  }

  private void counted(long bytes) {
    readBytes.increment(bytes);
    readOperations.increment();
  }

  private NotFoundException notFound(FileNotFoundException e) {
    return new NotFoundException(e, "Location does not exist: %s", location);
  }
}
