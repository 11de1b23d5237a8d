package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import io.seekwell.testing.hadoop.PositionalInputStream;
import io.seekwell.testing.hadoop.SourceFileSystem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.fs.FSInputStream;

/** An ORC file's bytes in memory that records every range a reader reads from it. */
final class RecordingSource implements SourceFileSystem.Source {

  private final byte[] bytes;
  private final List<ByteRange> reads = new CopyOnWriteArrayList<>();

  RecordingSource(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public long length() {
    return bytes.length;
  }

  /** Every range read, in the order read. */
  List<ByteRange> reads() {
    return List.copyOf(reads);
  }

  /** How many distinct bytes readers read: the bytes the reads needed. */
  long bytesRead() {
    List<ByteRange> sorted = new ArrayList<>(reads);
    sorted.sort(Comparator.comparingLong(ByteRange::start));
    long total = 0;
    long covered = -1; // the last byte counted
    for (ByteRange range : sorted) {
      if (range.end() > covered) {
        total += range.end() - Math.max(range.start(), covered + 1) + 1;
        covered = range.end();
      }
    }
    return total;
  }

  @Override
  public FSInputStream open() {
    return new PositionalInputStream(bytes.length) {
      @Override
      protected void readAt(long position, byte[] buffer, int offset, int count) {
        reads.add(ByteRange.ofLength(position, count));
        System.arraycopy(bytes, (int) position, buffer, offset, count);
      }
    };
  }
}
