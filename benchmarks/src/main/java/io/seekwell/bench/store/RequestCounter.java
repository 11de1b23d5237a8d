package io.seekwell.bench.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Request;

/**
 * Counts, outside the code under test and the same way for every read path, the GETs and HEADs an
 * SDK client sends, the body bytes its successful GET responses carry (their {@code
 * Content-Length}) and the response body bytes that actually arrive (so a GET aborted early counts
 * only what was received; the difference is what readers abandoned). Thread-safe.
 */
public final class RequestCounter implements ExecutionInterceptor {

  private final AtomicLong gets = new AtomicLong();
  private final AtomicLong heads = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong responseBytes = new AtomicLong();

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    switch (context.httpRequest().method()) {
      case GET -> gets.incrementAndGet();
      case HEAD -> heads.incrementAndGet();
      default -> {}
    }
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    if (context.httpRequest().method() == SdkHttpMethod.GET
        && context.httpResponse().isSuccessful()) {
      context
          .httpResponse()
          .firstMatchingHeader("Content-Length")
          .ifPresent(length -> responseBytes.addAndGet(Long.parseLong(length)));
    }
  }

  /**
   * Counts a sync body. The counting stream stays {@link Abortable} when the body is, so that a
   * stream closed early (Iceberg's, S3A's) still aborts the connection instead of draining it.
   */
  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    return context
        .responseBody()
        .map(
            body ->
                body instanceof Abortable abortable
                    ? AbortableInputStream.create(new CountingStream(body), abortable)
                    : new CountingStream(body));
  }

  @Override
  public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    return context
        .responsePublisher()
        .map(publisher -> subscriber -> publisher.subscribe(new CountingSubscriber(subscriber)));
  }

  /** Counts a request of a client that runs no execution interceptors (the CRT client). */
  void sent(S3Request request) {
    if (request instanceof GetObjectRequest) {
      gets.incrementAndGet();
    } else if (request instanceof HeadObjectRequest) {
      heads.incrementAndGet();
    }
  }

  /** Counts the body of a GET response of a client that runs no execution interceptors. */
  void answered(long contentLength) {
    responseBytes.addAndGet(contentLength);
  }

  /** Counts body bytes received by a client that runs no execution interceptors. */
  void received(long count) {
    bytes.addAndGet(count);
  }

  /** The GET requests counted so far. */
  public long gets() {
    return gets.get();
  }

  /** The HEAD requests counted so far. */
  public long heads() {
    return heads.get();
  }

  /** The response body bytes received so far. */
  public long bytes() {
    return bytes.get();
  }

  /**
   * The body bytes the successful GET responses so far carried, received or not: what the store
   * sent, or would have, had the reader not cut the response short.
   */
  public long responseBytes() {
    return responseBytes.get();
  }

  private final class CountingStream extends FilterInputStream {
    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        bytes.incrementAndGet();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        bytes.addAndGet(n);
      }
      return n;
    }
  }

  private final class CountingSubscriber implements Subscriber<ByteBuffer> {
    private final Subscriber<? super ByteBuffer> delegate;

    CountingSubscriber(Subscriber<? super ByteBuffer> delegate) {
      this.delegate = delegate;
    }

    @Override
    public void onSubscribe(Subscription subscription) {
      delegate.onSubscribe(subscription);
    }

    @Override
    public void onNext(ByteBuffer buffer) {
      bytes.addAndGet(buffer.remaining());
      delegate.onNext(buffer);
    }

    @Override
    public void onError(Throwable error) {
      delegate.onError(error);
    }

    @Override
    public void onComplete() {
      delegate.onComplete();
    }
  }
}
