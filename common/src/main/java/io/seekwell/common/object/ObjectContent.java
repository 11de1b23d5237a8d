package io.seekwell.common.object;

import io.seekwell.common.ByteRange;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The body of a GET: exactly the bytes of {@link #range()}, streamed as they arrive. Not
 * thread-safe; one reader owns it and must close it.
 *
 * <p>Reading past the last byte of the range returns -1. If the store delivers fewer bytes than the
 * range holds (the range reaches past the end of the object) the stream throws {@link
 * java.io.EOFException}. Closing the content before its end aborts the underlying connection rather
 * than draining the remaining bytes.
 *
 * @param range the bytes this body holds
 * @param etag the ETag of the object version the bytes come from
 * @param stream the bytes
 * @param objectLength the length of the whole object version, as the response gave it (a ranged
 *     GET's {@code Content-Range}), or empty if it did not
 */
public record ObjectContent(
    ByteRange range, String etag, InputStream stream, OptionalLong objectLength)
    implements Closeable {

  /**
   * Creates content; every argument must be non-null.
   *
   * @throws IllegalArgumentException if {@code objectLength} is negative
   */
  public ObjectContent {
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(etag, "etag");
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(objectLength, "objectLength");
    if (objectLength.isPresent() && objectLength.getAsLong() < 0) {
      throw new IllegalArgumentException("objectLength must be >= 0, was " + objectLength);
    }
  }

  /**
   * Content whose response did not give the object's length. A client that gives it (with the
   * canonical constructor) lets Seekwell learn the object's metadata from its GETs, saving a HEAD
   * when the object is later opened without a length.
   */
  public ObjectContent(ByteRange range, String etag, InputStream stream) {
    this(range, etag, stream, OptionalLong.empty());
  }

  /** The same response with its bytes read through {@code newStream}, which takes over this one. */
  public ObjectContent withStream(InputStream newStream) {
    return new ObjectContent(range, etag, newStream, objectLength);
  }

  /** Reads the whole body into a new array. */
  public byte[] readAllBytes() throws IOException {
    try (InputStream in = stream) {
      return in.readAllBytes();
    }
  }

  @Override
  public void close() throws IOException {
    stream.close();
  }
}
