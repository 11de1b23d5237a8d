package io.seekwell.common.object;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Counts the requests of another {@link ObjectClient} in a {@link Metrics}: HEADs, GETs, body bytes
 * received and failures by kind (from the typed exceptions of the {@link ObjectClient} contract).
 * Thread-safe. {@link #close()} closes the wrapped client.
 */
public final class MeteredObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final Metrics metrics;

  /** Counts the requests of {@code delegate} in {@code metrics}. */
  public MeteredObjectClient(ObjectClient delegate, Metrics metrics) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    metrics.increment(Metric.HEAD_REQUESTS);
    return delegate.headObject(request).whenComplete((metadata, failure) -> count(failure));
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    metrics.increment(Metric.GET_REQUESTS);
    CompletableFuture<ObjectContent> call = delegate.getObject(request);
    return Futures.cancelThrough(
        call.whenComplete((content, failure) -> count(failure))
            .thenApply(content -> content.withStream(new CountingStream(content.stream()))),
        call,
        Futures::closeQuietly);
  }

  /** Counts a failure by kind; a cancelled request was abandoned by its caller, not failed. */
  private void count(Throwable failure) {
    if (failure != null && !(Futures.unwrap(failure) instanceof CancellationException)) {
      metrics.increment(ErrorKind.of(failure).metric());
    }
  }

  @Override
  public boolean freesConnectionOnCancel() {
    return delegate.freesConnectionOnCancel();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Counts body bytes and body failures. */
  private final class CountingStream extends BulkReadInputStream {
    private final InputStream body;

    CountingStream(InputStream body) {
      this.body = body;
    }

    @Override
    protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
      int n;
      try {
        n = body.read(buffer, offset, length);
      } catch (IOException e) {
        metrics.increment(ErrorKind.of(e).metric());
        throw e;
      }
      if (n > 0) {
        metrics.add(Metric.BYTES_RECEIVED, n);
      }
      return n;
    }

    @Override
    public int available() throws IOException {
      return body.available();
    }

    @Override
    public void close() throws IOException {
      body.close();
    }
  }
}
