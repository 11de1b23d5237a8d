package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;
import java.util.List;

/**
 * Decides what one stream reads ahead. Called before the read it is told about, by one thread at a
 * time (the stream serializes its calls); it asks for bytes through its {@link Prefetcher} and
 * never blocks on I/O. Work it started on its own threads must stop asking for bytes once it is
 * closed; the stream's prefetcher refuses them after the stream is closed anyway.
 */
public interface ReadStrategy {

  /** No read-ahead. */
  ReadStrategy NONE = (position, length) -> {};

  /** The stream was closed: stop any work started for it. */
  default void close() {}

  /**
   * Whether a small object ({@code logicalio.small.object.size.threshold}) is fetched whole at
   * open, before {@link #onOpen}; a strategy that expects only part of it to be read says false and
   * fetches that part itself.
   */
  default boolean fetchesSmallObjectWhole() {
    return true;
  }

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
