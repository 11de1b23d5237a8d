package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectStoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * The body of a GET that survives failures part-way: when a read fails with a retryable error, or
 * the {@link StallWatchdog} cuts a body that stopped delivering, it waits a backoff delay and
 * continues with a new GET of the bytes not yet delivered, pinned to the first response's ETag. It
 * gives up after {@code resume.max.attempts} GETs in a row that delivered no byte, or once the
 * retry deadline has passed: a body cut again and again but always making progress is finished. Not
 * thread-safe: one reader owns it (only the watchdog closes the current body from its thread).
 */
final class ResumingInputStream extends BulkReadInputStream {

  private final GetRequest request;
  private final String etag;
  private final RetryingObjectClient client;
  private final RetryPolicy policy;
  private final long startNanos;
  private volatile ObjectContent current;
  private StallWatchdog.Watch watch;
  private long position;
  private int resumes;
  private int resumesWithoutProgress;
  private long positionAtLastResume;
  private boolean closed;

  ResumingInputStream(GetRequest request, ObjectContent first, RetryingObjectClient client) {
    this.request = request;
    this.etag = first.etag();
    this.client = client;
    this.policy = client.policy();
    this.startNanos = client.ticker().nanos();
    this.position = request.range().start();
    this.positionAtLastResume = position;
    watch(first);
  }

  private void watch(ObjectContent content) {
    current = content;
    watch = client.watchdog().watch(() -> Futures.closeQuietly(content));
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
        watch.reading();
        int n = current.stream().read(buffer, offset, length);
        watch.idle();
        if (n > 0) {
          position += n;
          if (position > request.range().end()) {
            finished();
          }
        }
        return n;
      } catch (IOException e) {
        watch.idle();
        resumeAfter(watch.wasCut() ? stalled(e) : e);
      }
    }
  }

  private void finished() {
    watch.end();
    if (resumes == 0) {
      client.times().recordBody(request.range().length(), client.ticker().nanos() - startNanos);
    }
  }

  private IOException stalled(IOException cause) {
    client.count(Metric.STALLED_GETS_ABANDONED, request.options());
    return ObjectStoreException.stalled(
        "GET "
            + request.describe()
            + ": no body bytes for "
            + TimeUnit.NANOSECONDS.toMillis(client.times().stallDeadlineNanos())
            + " ms after "
            + (position - request.range().start())
            + " bytes; the stalled connection was cut",
        cause);
  }

  /** Replaces the failed body with a GET of the rest, or rethrows when no attempt is left. */
  private void resumeAfter(IOException failure) throws IOException {
    IOException last = failure;
    while (true) {
      watch.end();
      Futures.closeQuietly(current);
      if (!ErrorKind.isRetryable(last) || Thread.currentThread().isInterrupted()) {
        throw last;
      }
      if (position > positionAtLastResume) {
        resumesWithoutProgress = 0;
        positionAtLastResume = position;
      }
      // A body that failed after delivering bytes is continued at once on a new connection: the
      // store answered, so there is nothing to back off from. Resumes that deliver nothing back
      // off.
      long delayNanos =
          resumesWithoutProgress == 0
              ? 0
              : policy.delayBefore(resumesWithoutProgress, last).toNanos();
      long remainingNanos = policy.deadline().toNanos() - (client.ticker().nanos() - startNanos);
      if (resumesWithoutProgress + 1 >= client.policy().configuration().resumeMaxAttempts()
          || delayNanos > remainingNanos) {
        throw RetryPolicy.exhausted(
            last,
            (resumes + 1)
                + (resumes == 0 ? " GET" : " GETs")
                + " of the body, "
                + (resumesWithoutProgress + 1)
                + " in a row without a byte");
      }
      resumes++;
      resumesWithoutProgress++;
      client.count(Metric.RETRIES, request.options());
      client.count(Metric.BODIES_RESUMED, request.options());
      sleep(delayNanos);
      GetRequest rest = request.withRange(request.range().suffixFrom(position)).withEtag(etag);
      try {
        watch(
            Futures.awaitClosingLate(
                client.send(rest), remainingNanos - delayNanos, "GET " + rest.describe()));
        return;
      } catch (IOException e) {
        last = e;
      }
    }
  }

  private void sleep(long nanos) throws InterruptedIOException {
    if (nanos == 0) {
      return;
    }
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException error =
          new InterruptedIOException("GET " + request.describe() + ": interrupted while resuming");
      error.initCause(e);
      throw error;
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
      watch.end();
      current.close();
    }
  }
}
