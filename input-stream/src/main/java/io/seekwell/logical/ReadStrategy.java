package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;
import java.util.List;

/**
 * Decides what one stream reads ahead. Called on the stream's thread, before the read it is told
 * about; it asks for bytes through its {@link Prefetcher} and never blocks on I/O.
 */
public interface ReadStrategy {

  /** No read-ahead. */
  ReadStrategy NONE = (position, length) -> {};

  /** The stream was opened. */
  default void onOpen() throws IOException {}

  /** The stream is about to read {@code length} bytes at {@code position} (its own position). */
  void beforeRead(long position, long length) throws IOException;

  /**
   * The stream is about to read {@code length} bytes at {@code position} without moving its
   * position ({@code readFully}, {@code readTail}).
   */
  default void beforePositionalRead(long position, long length) throws IOException {}

  /**
   * The stream is about to read {@code ranges} with one {@code readVectored} call: its non-empty
   * ranges, sorted by offset. By default each is told as a positional read.
   */
  default void beforeVectoredRead(List<ByteRange> ranges) throws IOException {
    for (ByteRange range : ranges) {
      beforePositionalRead(range.start(), range.length());
    }
  }
}
