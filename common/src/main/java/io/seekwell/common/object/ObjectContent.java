package io.seekwell.common.object;

import io.seekwell.common.ByteRange;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

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
 */
public record ObjectContent(ByteRange range, String etag, InputStream stream) implements Closeable {

  /** Creates content; every argument must be non-null. */
  public ObjectContent {
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(etag, "etag");
    Objects.requireNonNull(stream, "stream");
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
