package io.seekwell.client;

import io.seekwell.common.io.BulkReadInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A GET body that holds one of its client's connections until it is closed, as an HTTP client gives
 * a connection back to its pool only then (a body read to the last byte of its range may not have
 * told the client it ended); closing gives the place back, once. Not thread-safe, like the body it
 * wraps, except that {@link #close()} may come from another thread (a stall watchdog's).
 */
final class ConnectionHeldStream extends BulkReadInputStream {

  private final InputStream body;
  private final Runnable release;
  private final AtomicBoolean released = new AtomicBoolean();

  /** {@code body}, which gives its connection back by running {@code release}. */
  ConnectionHeldStream(InputStream body, Runnable release) {
    this.body = body;
    this.release = release;
  }

  @Override
  protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
    return body.read(buffer, offset, length);
  }

  @Override
  public int available() throws IOException {
    return body.available();
  }

  @Override
  public void close() throws IOException {
    try {
      body.close();
    } finally {
      if (released.compareAndSet(false, true)) {
        release.run();
      }
    }
  }
}
