package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link ReadStrategy} can do with its stream's object: know it, ask for bytes ahead, and
 * get bytes it needs to decide (such as a file footer). Thread-safe: a strategy may use it from its
 * own threads.
 */
public interface Prefetcher {

  /** The object, as {@code s3://bucket/key}, for messages. */
  String objectName();

  /** The object's length in bytes. */
  long objectLength();

  /**
   * The size a read-ahead that grows its requests grows them up to: the size the store's GETs are
   * split into now, or less with a small memory limit. It may change as GETs show how fast the link
   * is.
   */
  long requestSize();

  /**
   * The gap up to which ranges asked for together are cheaper to fetch as one GET than as two
   * ({@code physicalio.request.coalesce.tolerance}; measured from the link when {@code auto}).
   */
  long mergeGap();

  /**
   * Starts GETs for the bytes of {@code range} not yet cached or in flight, without waiting.
   *
   * @return false if memory could not be found for it (the request yields to the memory bound)
   */
  boolean prefetch(ByteRange range) throws IOException;

  /**
   * As {@link #prefetch}, for bytes this stream will read once, in order (read-ahead, column
   * chunks): in an object longer than a quarter of the memory limit that no other stream has open,
   * they leave the cache as soon as the stream has read through them.
   */
  boolean prefetchOnce(ByteRange range) throws IOException;

  /**
   * As {@link #prefetchOnce}, for bytes the stream will read once, in the order they are asked for
   * (predicted column chunks): what finds no memory now waits, after what already waits, and is
   * fetched as the stream's reads move on and free memory. What waits is dropped when a read starts
   * inside it past its start, or when the stream closes.
   */
  void prefetchInTurn(ByteRange range) throws IOException;

  /**
   * The bytes of {@code range}, fetched if needed; completes on the thread that receives the last
   * of them, or exceptionally (also when no memory could be found for them).
   */
  CompletableFuture<byte[]> fetch(ByteRange range);
}
