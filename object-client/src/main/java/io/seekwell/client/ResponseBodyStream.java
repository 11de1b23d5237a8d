package io.seekwell.client;

import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.object.ObjectStoreException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * The body of one GET response: checks that exactly the requested number arrive, turns the SDK's
 * unchecked errors into {@link IOException}s, and aborts the connection when closed before the end.
 * One thread reads it; {@link #close()} may come from another thread (a stall watchdog), and then
 * ends a blocked read with an {@code IOException}.
 */
final class ResponseBodyStream extends BulkReadInputStream {

  /** Aborts the HTTP exchange so that closing does not drain the rest of the body. */
  interface Abortable {
    void abort();
  }

  private final InputStream body;
  private final Abortable abortable;
  private final long expectedLength;
  private final long declaredLength;
  private final String what;
  private long received;
  private volatile boolean closed;

  /**
   * The body {@code body} of a response that should hold {@code expectedLength} bytes (the range
   * asked for) and declared {@code declaredLength} (its {@code Content-Length}, or -1 if unknown).
   * A body that ends before what the response declared was cut: a retryable failure. A response
   * that declared fewer bytes than asked for reached the end of the object: an EOF.
   */
  ResponseBodyStream(
      InputStream body,
      Abortable abortable,
      long expectedLength,
      long declaredLength,
      String what) {
    this.body = body;
    this.abortable = abortable;
    this.expectedLength = expectedLength;
    this.declaredLength = declaredLength;
    this.what = what;
  }

  @Override
  protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
    if (closed) {
      throw new IOException(what + ": response body is closed");
    }
    long remaining = expectedLength - received;
    if (remaining == 0) {
      return -1;
    }
    int n;
    try {
      n = body.read(buffer, offset, (int) Math.min(length, remaining));
    } catch (IOException | RuntimeException e) {
      throw S3Errors.translate(e, what + " after " + received + " body bytes");
    }
    if (n < 0 && received < declaredLength) {
      throw new ObjectStoreException(
          what
              + ": the connection ended after "
              + received
              + " of "
              + declaredLength
              + " body bytes",
          0,
          null,
          null,
          true,
          null);
    }
    if (n < 0) {
      throw new EOFException(
          what
              + ": the store sent "
              + received
              + " of "
              + expectedLength
              + " bytes; the range reaches past the end of the object");
    }
    received += n;
    return n;
  }

  @Override
  public int available() throws IOException {
    return closed ? 0 : (int) Math.min(body.available(), expectedLength - received);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (received < expectedLength) {
      abortable.abort();
    }
    body.close();
  }
}
