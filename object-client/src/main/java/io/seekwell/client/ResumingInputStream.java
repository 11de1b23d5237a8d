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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The body of a GET that survives failures part-way: when a read fails with a retryable error, or
 * the {@link StallWatchdog} cuts a body that stopped delivering, it waits a backoff delay and
 * continues with a new GET of the bytes not yet delivered, pinned to the first response's ETag. It
 * gives up after {@code resume.max.attempts} GETs in a row that delivered no byte, or once the
 * retry deadline has passed: a body cut again and again but always making progress is finished. Not
 * thread-safe: one reader owns it (only the watchdog closes the current body from its thread).
 */
final class ResumingInputStream extends BulkReadInputStream {

  private static final Logger LOG = LoggerFactory.getLogger(ResumingInputStream.class);

  /**
   * The most one read asks of the body. The watchdog sees progress only when a read returns, and
   * the SDK's blocking body returns only once it has filled what was asked: a read of a whole large
   * range would look stalled while its bytes flow. The stall deadline is set by the time a read of
   * this size takes ({@link ResponseTimes}).
   */
  static final int MAX_READ = 64 * 1024;

  private final GetRequest request;
  private final String etag;
  private final ResumingObjectClient.Resumes shared;
  private final RetryPolicy policy;
  private final long startNanos;
  private volatile ObjectContent current;
  private StallWatchdog.Watch watch;
  private long position;
  private int resumes;
  private int resumesWithoutProgress;
  private long positionAtLastResume;
  private boolean closed;

  ResumingInputStream(
      GetRequest request, ObjectContent first, ResumingObjectClient.Resumes shared) {
    this.request = request;
    this.etag = first.etag();
    this.shared = shared;
    this.policy = shared.policy();
    this.startNanos = shared.ticker().nanos();
    this.position = request.range().start();
    this.positionAtLastResume = position;
    watch(first);
  }

  private void watch(ObjectContent content) {
    current = content;
    watch = shared.watchdog().watch(() -> Futures.closeQuietly(content));
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
        int n = current.stream().read(buffer, offset, Math.min(length, MAX_READ));
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
      shared.times().recordBody(request.range().length(), shared.ticker().nanos() - startNanos);
    }
  }

  private IOException stalled(IOException cause) {
    LOG.debug(
        "GET {}: stall cut, no body bytes for {} ms at byte {} (GET {} of the body)",
        request.describe(),
        TimeUnit.NANOSECONDS.toMillis(shared.times().stallDeadlineNanos()),
        position,
        resumes + 1);
    shared.counter().count(Metric.STALLED_GETS_ABANDONED, request.options());
    return ObjectStoreException.stalled(
        "GET "
            + request.describe()
            + ": no body bytes for "
            + TimeUnit.NANOSECONDS.toMillis(shared.times().stallDeadlineNanos())
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
        LOG.debug(
            "GET {}: body failed at byte {} ({}), not resumed: {}",
            request.describe(),
            position,
            ErrorKind.of(last),
            last.toString());
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
      long elapsedNanos = shared.ticker().nanos() - startNanos;
      if (resumesWithoutProgress + 1 >= policy.configuration().resumeMaxAttempts()
          || policy.isPastDeadline(elapsedNanos, delayNanos)) {
        String tried = RetryPolicy.triedBody(resumes + 1, resumesWithoutProgress + 1);
        LOG.debug(
            "GET {}: gave up resuming at byte {} after {} ({}): {}",
            request.describe(),
            position,
            tried,
            ErrorKind.of(last),
            last.toString());
        throw RetryPolicy.exhausted(last, tried);
      }
      resumes++;
      resumesWithoutProgress++;
      shared.counter().count(Metric.RETRIES, request.options());
      shared.counter().count(Metric.BODIES_RESUMED, request.options());
      GetRequest rest = request.withRange(request.range().suffixFrom(position)).withEtag(etag);
      LOG.debug(
          "GET {}: body resumed at byte {} in {} ms with GET {} of the body, after {} ({})",
          request.describe(),
          position,
          delayNanos / 1_000_000,
          resumes + 1,
          ErrorKind.of(last),
          last.toString());
      sleep(delayNanos);
      try {
        watch(
            Futures.awaitClosingLate(
                shared.sender().getObject(rest),
                policy.nanosLeft(elapsedNanos) - delayNanos,
                "GET " + rest.describe()));
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
