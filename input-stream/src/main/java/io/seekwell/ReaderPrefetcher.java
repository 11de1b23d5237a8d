package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.physical.ObjectReader;
import java.io.IOException;

/** Lets a read strategy prefetch and read through its stream's {@link ObjectReader}. */
final class ReaderPrefetcher implements Prefetcher {

  private final ObjectReader reader;

  ReaderPrefetcher(ObjectReader reader) {
    this.reader = reader;
  }

  @Override
  public long objectLength() {
    return reader.length();
  }

  @Override
  public boolean prefetch(ByteRange range) throws IOException {
    return reader.prefetch(range);
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    int done = 0;
    while (done < length) {
      done += reader.read(position + done, buffer, offset + done, length - done);
    }
  }
}
