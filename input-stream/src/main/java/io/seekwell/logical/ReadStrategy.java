package io.seekwell.logical;

import java.io.IOException;

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
   * position ({@code readFully}, {@code readTail}, each range of {@code readVectored}).
   */
  default void beforePositionalRead(long position, long length) throws IOException {}
}
