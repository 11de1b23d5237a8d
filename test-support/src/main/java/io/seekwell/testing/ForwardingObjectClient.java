package io.seekwell.testing;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * An object client that forwards every call to another, for a test to override what it changes:
 * when GETs are answered, what their bodies do. Thread-safe as the client it forwards to.
 */
public abstract class ForwardingObjectClient implements ObjectClient {

  /** The client calls are forwarded to; closing this closes it. */
  protected final ObjectClient delegate;

  protected ForwardingObjectClient(ObjectClient delegate) {
    this.delegate = delegate;
  }

  /** {@code content} with its body read through {@code wrap(body)}. */
  protected static ObjectContent withBody(ObjectContent content, UnaryOperator<InputStream> wrap) {
    return new ObjectContent(content.range(), content.etag(), wrap.apply(content.stream()));
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return delegate.headObject(request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    return delegate.getObject(request);
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
