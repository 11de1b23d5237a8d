package io.seekwell.client;

import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.concurrent.CompletableFuture;

/** Another client's requests, as a client whose calls block: cancelling one does not end it. */
record BlockingStyle(ObjectClient delegate) implements ObjectClient {
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
    return false;
  }

  @Override
  public void close() {
    delegate.close();
  }
}
