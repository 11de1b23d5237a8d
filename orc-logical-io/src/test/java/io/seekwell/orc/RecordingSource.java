package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import java.io.EOFException;
import java.io.IOException;
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

  List<ByteRange> reads() {
    return reads;
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
    return new FSInputStream() {
      private long position;

      @Override
      public void seek(long to) {
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
      public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        int n = read(position, buffer, offset, length);
        position += Math.max(n, 0);
        return n;
      }

      @Override
      public int read(long at, byte[] buffer, int offset, int length) {
        if (at >= bytes.length) {
          return -1;
        }
        int n = (int) Math.min(length, bytes.length - at);
        if (n > 0) {
          reads.add(ByteRange.ofLength(at, n));
          System.arraycopy(bytes, (int) at, buffer, offset, n);
        }
        return n;
      }

      @Override
      public void readFully(long at, byte[] buffer, int offset, int length) throws IOException {
        if (at + length > bytes.length) {
          throw new EOFException(length + " bytes at " + at + " pass the end");
        }
        read(at, buffer, offset, length);
      }
    };
  }
}
