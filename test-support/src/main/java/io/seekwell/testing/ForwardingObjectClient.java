package io.seekwell.testing;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;

/**
 * An object client that forwards every call to another, for a test to override what it changes:
 * when GETs are answered ({@link #getObject}), what their bodies' reads do ({@link #read}).
 * Thread-safe as the client it forwards to and the test's overrides are.
 */
public abstract class ForwardingObjectClient implements ObjectClient {

  /** The client calls are forwarded to; closing this closes it. */
  protected final ObjectClient delegate;

  protected ForwardingObjectClient(ObjectClient delegate) {
    this.delegate = delegate;
  }

  /**
   * One read of a GET's body of up to {@code length} bytes; by default the body's own. Bulk reads
   * of every body go through it.
   */
  protected int read(InputStream body, byte[] buffer, int offset, int length) throws IOException {
    return body.read(buffer, offset, length);
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return delegate.headObject(request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return delegate
        .getObject(request)
        .thenApply(
            content ->
                content.withStream(
                    new FilterInputStream(content.stream()) {
                      @Override
                      public int read(byte[] buffer, int offset, int length) throws IOException {
                        return ForwardingObjectClient.this.read(in, buffer, offset, length);
                      }
                    }));
  }

  @Override
  public boolean freesConnectionOnCancel() {
    return delegate.freesConnectionOnCancel();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
