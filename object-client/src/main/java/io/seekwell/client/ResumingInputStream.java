package io.seekwell.client;

import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The body of a GET that survives failures part-way: when a read fails with a retryable error,
 * waits a backoff delay and continues with a new GET of the bytes not yet delivered, pinned to the
 * first response's ETag. Not thread-safe; one reader owns it.
 */
final class ResumingInputStream extends BulkReadInputStream {

  private final GetRequest request;
  private final String etag;
  private final ObjectClient client;
  private final RetryPolicy policy;
  private final Metrics metrics;
  private final long startNanos = System.nanoTime();
  private ObjectContent current;
  private long position;
  private int attempts = 1;
  private boolean closed;

  ResumingInputStream(
      GetRequest request,
      ObjectContent first,
      ObjectClient client,
      RetryPolicy policy,
      Metrics metrics) {
    this.request = request;
    this.etag = first.etag();
    this.current = first;
    this.client = client;
    this.policy = policy;
    this.metrics = metrics;
    this.position = request.range().start();
  }

  @Override
  protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
    if (closed) {
      throw new IOException("GET " + request.describe() + ": body is closed");
    }
    while (true) {
      if (position > request.range().end()) {
        return -1;
      }
      try {
        int n = current.stream().read(buffer, offset, length);
        if (n > 0) {
          position += n;
        }
        return n;
      } catch (IOException e) {
        resumeAfter(e);
      }
    }
  }

  /** Replaces the failed body with a GET of the rest, or rethrows when no attempt is left. */
  private void resumeAfter(IOException failure) throws IOException {
    IOException last = failure;
    while (true) {
      closeQuietly(current);
      if (!RetryPolicy.isRetryable(last) || Thread.currentThread().isInterrupted()) {
        throw last;
      }
      long delayNanos = policy.delayBefore(attempts, last).toNanos();
      long remainingNanos = policy.deadline().toNanos() - (System.nanoTime() - startNanos);
      if (attempts >= policy.maxAttempts() || delayNanos > remainingNanos) {
        throw RetryPolicy.exhausted(last, attempts);
      }
      attempts++;
      metrics.increment(Metric.RETRIES);
      sleep(delayNanos);
      GetRequest rest = request.withRange(request.range().suffixFrom(position)).withEtag(etag);
      try {
        current = ObjectContent.await(client.getObject(rest), remainingNanos - delayNanos);
        return;
      } catch (ExecutionException e) {
        last = RetryPolicy.asIoException(e);
      } catch (TimeoutException e) {
        throw RetryPolicy.exhausted(
            new IOException("GET " + rest.describe() + ": retry deadline passed", e), attempts);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(e);
      }
    }
  }

  private void sleep(long nanos) throws InterruptedIOException {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(e);
    }
  }

  private InterruptedIOException interrupted(InterruptedException e) {
    InterruptedIOException error =
        new InterruptedIOException("GET " + request.describe() + ": interrupted while resuming");
    error.initCause(e);
    return error;
  }

  private static void closeQuietly(ObjectContent content) {
    try {
      content.close();
    } catch (IOException | RuntimeException ignored) {
      // The body already failed; closing it only releases the connection.
    }
  }

  @Override
  public int available() throws IOException {
    return closed ? 0 : current.stream().available();
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      current.close();
    }
  }
}
