package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;

/**
 * What a {@link ReadStrategy} can do with its stream's object: know it, ask for bytes ahead, and
 * read bytes it needs to decide (such as a file footer).
 */
public interface Prefetcher {

  /** The object's length in bytes. */
  long objectLength();

  /**
   * Starts GETs for the bytes of {@code range} not yet cached or in flight, without waiting.
   *
   * @return false if memory could not be found for it (the request yields to the memory bound)
   */
  boolean prefetch(ByteRange range) throws IOException;

  /** Reads {@code length} bytes at {@code position}, waiting for them. */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException;
}
