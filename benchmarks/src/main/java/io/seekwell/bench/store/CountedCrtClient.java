package io.seekwell.bench.store;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Request;

/**
 * A CRT client whose requests and body bytes a {@link RequestCounter} counts: the CRT client runs
 * no execution interceptors, so it is counted at its API instead. One GET is one request here, as
 * on the wire, because Seekwell's CRT part size is larger than any of its GETs; retries inside the
 * CRT are not seen. Thread-safe.
 */
final class CountedCrtClient extends DelegatingS3AsyncClient {

  private final RequestCounter counter;

  CountedCrtClient(S3AsyncClient crt, RequestCounter counter) {
    super(crt);
    this.counter = counter;
  }

  @Override
  protected <T extends S3Request, R> CompletableFuture<R> invokeOperation(
      T request, Function<T, CompletableFuture<R>> operation) {
    counter.sent(request);
    return super.invokeOperation(request, operation);
  }

  @Override
  public <R> CompletableFuture<R> getObject(
      GetObjectRequest request, AsyncResponseTransformer<GetObjectResponse, R> transformer) {
    return super.getObject(request, new Counting<>(transformer));
  }

  /** Hands the body on, counting its bytes as they arrive. */
  private final class Counting<R> implements AsyncResponseTransformer<GetObjectResponse, R> {
    private final AsyncResponseTransformer<GetObjectResponse, R> delegate;

    Counting(AsyncResponseTransformer<GetObjectResponse, R> delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableFuture<R> prepare() {
      return delegate.prepare();
    }

    @Override
    public void onResponse(GetObjectResponse response) {
      if (response.contentLength() != null) {
        counter.answered(response.contentLength());
      }
      delegate.onResponse(response);
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
      delegate.onStream(publisher.map(this::counted));
    }

    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public void exceptionOccurred(Throwable error) {
      delegate.exceptionOccurred(error);
    }

    private ByteBuffer counted(ByteBuffer buffer) {
      counter.received(buffer.remaining());
      return buffer;
    }
  }
}
