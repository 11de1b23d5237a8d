package io.seekwell;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One range of a vectored read: where it starts, how long it is, and the future that receives its
 * bytes. The future completes with a buffer whose position is 0 and limit is the range's length, or
 * exceptionally (an {@link java.io.EOFException} for a range past the end of the object).
 */
public final class ObjectRange {

  private final CompletableFuture<ByteBuffer> byteBuffer;
  private final long offset;
  private final int length;

  /**
   * Creates a range.
   *
   * @param byteBuffer the future to complete with the bytes
   * @param offset where the range starts in the object
   * @param length how many bytes it holds
   */
  public ObjectRange(CompletableFuture<ByteBuffer> byteBuffer, long offset, int length) {
    this.byteBuffer = Objects.requireNonNull(byteBuffer, "byteBuffer");
    this.offset = offset;
    this.length = length;
  }

  /** A range with a new, incomplete future. */
  public static ObjectRange of(long offset, int length) {
    return new ObjectRange(new CompletableFuture<>(), offset, length);
  }

  /** The future that receives the bytes. */
  public CompletableFuture<ByteBuffer> getByteBuffer() {
    return byteBuffer;
  }

  /** Where the range starts in the object. */
  public long getOffset() {
    return offset;
  }

  /** How many bytes the range holds. */
  public int getLength() {
    return length;
  }

  @Override
  public String toString() {
    return "ObjectRange[offset=" + offset + ", length=" + length + "]";
  }
}
