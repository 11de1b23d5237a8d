package io.seekwell.client;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Returns each GET body of another {@link ObjectClient} as a {@link ResumingInputStream}: a body
 * that fails part-way or stalls is continued with a GET, through the same client, of exactly the
 * bytes not yet delivered, pinned to the first response's ETag. HEADs pass through. Thread-safe: it
 * holds no state of its own; each body's state is its stream's. {@link #close()} closes the wrapped
 * client.
 */
final class ResumingObjectClient implements ObjectClient {

  /**
   * What the bodies of one client share.
   *
   * @param sender sends the GET of the rest of a body (retried and hedged, not resumed)
   * @param policy the backoff between resumes, the deadline and {@code resume.max.attempts}
   * @param watchdog cuts bodies that stopped delivering
   */
  record Resumes(
      ObjectClient sender,
      RetryPolicy policy,
      Ticker ticker,
      ResponseTimes times,
      StallWatchdog watchdog,
      RequestCounter counter) {}

  private final Resumes resumes;

  ResumingObjectClient(Resumes resumes) {
    this.resumes = Objects.requireNonNull(resumes, "resumes");
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    return resumes.sender().headObject(request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    CompletableFuture<ObjectContent> sent = resumes.sender().getObject(request);
    return Futures.cancelThrough(
        sent.thenApply(
            content -> content.withStream(new ResumingInputStream(request, content, resumes))),
        sent,
        Futures::closeQuietly);
  }

  @Override
  public void close() {
    resumes.sender().close();
  }
}
