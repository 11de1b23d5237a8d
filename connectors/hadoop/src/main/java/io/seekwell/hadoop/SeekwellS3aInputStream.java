package io.seekwell.hadoop;

import io.seekwell.ObjectRange;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.VectoredReadUtils;
import org.apache.hadoop.fs.s3a.impl.streams.InputStreamType;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectInputStream;
import org.apache.hadoop.fs.s3a.impl.streams.ObjectReadParameters;
import org.apache.hadoop.fs.s3a.statistics.S3AInputStreamStatistics;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSnapshot;

/**
 * An S3A input stream that reads through Seekwell: seek, read, positioned reads and both vectored
 * read overloads go to a Seekwell stream over the factory's shared cache. Like every {@code
 * FSInputStream}, one thread at a time moves its position ({@code read}, {@code seek}); positioned
 * and vectored reads may come from many threads at once, as {@code PositionedReadable} requires,
 * and do not move the position.
 */
final class SeekwellS3aInputStream extends ObjectInputStream implements CanUnbuffer {

  /** Seekwell's counters of one stream, added to S3A's statistics of each stream. */
  static final List<Metric> STREAM_METRICS =
      List.of(
          Metric.RETRIES,
          Metric.HEDGED_GETS,
          Metric.HEDGES_WON,
          Metric.STALLED_GETS_ABANDONED,
          Metric.BODIES_RESUMED,
          Metric.DISK_HITS,
          Metric.DISK_MISSES,
          Metric.DISK_BYTES_READ);

  private final S3SeekableInputStream stream;
  private final S3AInputStreamStatistics statistics;
  private final FileSystem.Statistics fileSystemStatistics; // null when S3A keeps none
  private final Metrics resilience;
  private volatile boolean closed;

  SeekwellS3aInputStream(
      ObjectReadParameters parameters, S3SeekableInputStream stream, Metrics resilience) {
    super(InputStreamType.Custom, parameters);
    this.stream = stream;
    this.statistics = parameters.getStreamStatistics();
    this.fileSystemStatistics = getContext().getStats();
    this.resilience = resilience;
  }

  /** The IOStatistics key of one of Seekwell's counters: {@code seekwell_hedged_gets}. */
  static String statisticName(Metric metric) {
    return "seekwell_" + metric.name().toLowerCase(Locale.ROOT);
  }

  /**
   * S3A's statistics of this stream, with Seekwell's counters for it added as counters named {@code
   * seekwell_retries}, {@code seekwell_hedged_gets}, {@code seekwell_hedges_won}, {@code
   * seekwell_stalled_gets_abandoned}, {@code seekwell_bodies_resumed}, and for the disk tier {@code
   * seekwell_disk_hits}, {@code seekwell_disk_misses} and {@code seekwell_disk_bytes_read} (blocks
   * the stream's reads started).
   */
  @Override
  public IOStatistics getIOStatistics() {
    IOStatisticsSnapshot snapshot = new IOStatisticsSnapshot(super.getIOStatistics());
    for (Metric metric : STREAM_METRICS) {
      snapshot.setCounter(statisticName(metric), resilience.get(metric));
    }
    return snapshot;
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    long position = stream.getPos();
    statistics.readOperationStarted(position, 1);
    int b = stream.read();
    statistics.readOperationCompleted(1, b < 0 ? -1 : 1);
    if (b >= 0) {
      bytesRead(1);
    }
    return b;
  }

  @Override
  public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    statistics.readOperationStarted(stream.getPos(), length);
    int n = stream.read(buffer, offset, length);
    statistics.readOperationCompleted(length, n);
    if (n > 0) {
      bytesRead(n);
    }
    return n;
  }

  @Override
  public synchronized void seek(long position) throws IOException {
    checkOpen();
    if (position < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + " " + position);
    }
    if (position > getContentLength()) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + " " + position);
    }
    long current = stream.getPos();
    if (position > current) {
      statistics.seekForwards(position - current, 0);
    } else if (position < current) {
      statistics.seekBackwards(position - current);
    }
    stream.seek(position);
  }

  @Override
  public synchronized long getPos() throws IOException {
    checkOpen();
    return stream.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPosition) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return stream.available();
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    return stream.skip(n);
  }

  /** Reads at {@code position} without moving the stream; fewer bytes only at the end. */
  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buffer, offset, length);
    if (length == 0) {
      return 0;
    }
    if (position >= getContentLength()) {
      return -1;
    }
    int n = (int) Math.min(length, getContentLength() - position);
    readFully(position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, buffer, offset, length);
    if (length == 0) {
      return;
    }
    statistics.readFullyOperationStarted(position, length);
    stream.readFully(position, buffer, offset, length);
    bytesRead(length);
  }

  /**
   * Counts {@code bytes} given to the caller in the stream's statistics and, in the caller's
   * thread, in the file system's (as S3A's classic stream does): engines report a task's input from
   * the file system statistics of its thread (Spark's "Input" column).
   */
  private void bytesRead(long bytes) {
    statistics.bytesRead(bytes);
    if (fileSystemStatistics != null) {
      fileSystemStatistics.incrementBytesRead(bytes);
    }
  }

  @Override
  public void readVectored(List<? extends FileRange> ranges, IntFunction<ByteBuffer> allocate)
      throws IOException {
    readVectored(ranges, allocate, buffer -> {});
  }

  /**
   * Reads every range with Seekwell's coalesced vectored read: all GETs are sent at once and each
   * range's future completes as its bytes arrive; {@code release} gets back buffers of failed
   * ranges. The ranges' bytes are counted in the file system's statistics in the calling thread
   * when it asks for them (a range that then fails stays counted there), where the engine looks for
   * its task's input, not in the threads that complete them.
   *
   * @throws EOFException if a range reaches past the end of the file
   * @throws IllegalArgumentException if ranges overlap or are invalid
   */
  @Override
  public void readVectored(
      List<? extends FileRange> ranges,
      IntFunction<ByteBuffer> allocate,
      Consumer<ByteBuffer> release)
      throws IOException {
    checkOpen();
    List<? extends FileRange> sorted =
        VectoredReadUtils.validateAndSortRanges(ranges, Optional.of(getContentLength()));
    List<ObjectRange> seekwellRanges = new ArrayList<>(sorted.size());
    for (FileRange range : sorted) {
      CompletableFuture<ByteBuffer> data = new CompletableFuture<>();
      range.setData(data);
      CompletableFuture<ByteBuffer> fetched = new CompletableFuture<>();
      fetched.whenComplete(
          (buffer, failure) -> {
            if (failure == null) {
              // Counted as S3A's own stream counts them, before the caller can see the bytes.
              statistics.bytesRead(range.getLength());
              data.complete(buffer);
            } else {
              data.completeExceptionally(failure);
            }
          });
      seekwellRanges.add(new ObjectRange(fetched, range.getOffset(), range.getLength()));
    }
    int combined = stream.readVectored(seekwellRanges, allocate, release);
    statistics.readVectoredOperationStarted(ranges.size(), combined);
    if (fileSystemStatistics != null) {
      fileSystemStatistics.incrementBytesRead(
          sorted.stream().mapToLong(FileRange::getLength).sum());
    }
  }

  @Override
  public int minSeekForVectorReads() {
    return getVectoredIOContext().getMinSeekForVectorReads();
  }

  @Override
  public int maxReadSizeForVectorReads() {
    return getVectoredIOContext().getMaxReadSizeForVectorReads();
  }

  /** Nothing to release: the bytes live in the factory's shared, memory-bounded cache. */
  @Override
  public void unbuffer() {
    statistics.unbuffered();
  }

  @Override
  public boolean hasCapability(String capability) {
    return SeekwellStreamFactory.isStreamCapability(capability) || super.hasCapability(capability);
  }

  @Override
  protected boolean isStreamOpen() {
    return !closed;
  }

  @Override
  protected void abortInFinalizer() {
    closeStream();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closeStream();
    super.close();
  }

  private void closeStream() {
    closed = true;
    stream.close();
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + getUri());
    }
  }
}
