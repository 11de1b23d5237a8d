package io.seekwell.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The SDK's {@link AsyncResponseTransformer#toBlockingInputStream()}, except that a stream closed
 * or aborted before its body's subscription has arrived cancels that subscription when it does.
 *
 * <p>The SDK hands out the stream as soon as it has subscribed to the body, while the HTTP client
 * may deliver the subscription later, on its own thread. The SDK's stream, closed in between, never
 * cancels the subscription that then arrives: the body bytes already received stay buffered and the
 * connection is neither released nor closed. Seekwell closes a just-delivered stream whenever it
 * discards an answer (the slower of a tied pair, a late hedge, a call given up).
 *
 * <p>Design notes: one instance serves one request; the SDK calls {@link #prepare()}, {@link
 * #onResponse}, {@link #onStream} and {@link #exceptionOccurred} in order for each attempt, and
 * each attempt gets its own {@link AttemptBody}. The stream may be closed on any thread, the
 * subscription arrives on the HTTP client's. Closing marks the attempt closed before it closes the
 * SDK's stream; the subscription is handed to the SDK's stream before the mark is read. So either
 * the SDK's stream had the subscription when it was closed, and cancelled it itself, or the mark is
 * seen and the subscription cancelled here (both may happen: the SDK's subscriptions ignore a
 * second cancel). Only the subscription's arrival is watched, so a stream closed after it came is
 * the SDK's to cancel; and a body that ended while its subscription was being handed over (a
 * publisher that sends it all at once) is not cancelled.
 */
final class BlockingBodyTransformer
    implements AsyncResponseTransformer<GetObjectResponse, ResponseInputStream<GetObjectResponse>> {

  private final AsyncResponseTransformer<GetObjectResponse, ResponseInputStream<GetObjectResponse>>
      blocking = AsyncResponseTransformer.toBlockingInputStream();
  private volatile AttemptBody attempt;

  @Override
  public CompletableFuture<ResponseInputStream<GetObjectResponse>> prepare() {
    AttemptBody body = new AttemptBody();
    attempt = body;
    return blocking.prepare().thenApply(body::cancellingOnClose);
  }

  @Override
  public void onResponse(GetObjectResponse response) {
    blocking.onResponse(response);
  }

  @Override
  public void onStream(SdkPublisher<ByteBuffer> publisher) {
    AttemptBody body = attempt;
    blocking.onStream(SdkPublisher.adapt(reader -> publisher.subscribe(body.watching(reader))));
  }

  @Override
  public void exceptionOccurred(Throwable error) {
    blocking.exceptionOccurred(error);
  }

  @Override
  public String name() {
    return blocking.name();
  }

  /** Whether one attempt's stream was closed, and whether its body ended. */
  private static final class AttemptBody {

    private volatile boolean closed;
    private volatile boolean ended;

    ResponseInputStream<GetObjectResponse> cancellingOnClose(
        ResponseInputStream<GetObjectResponse> stream) {
      InputStream closing =
          new FilterInputStream(stream) {
            @Override
            public void close() throws IOException {
              markClosed();
              super.close();
            }
          };
      // No timeout task of its own: the SDK's stream below aborts itself if left unread.
      return new ResponseInputStream<>(
          stream.response(),
          AbortableInputStream.create(
              closing,
              () -> {
                markClosed();
                stream.abort();
              }),
          Duration.ZERO);
    }

    Subscriber<ByteBuffer> watching(Subscriber<? super ByteBuffer> reader) {
      return new Subscriber<>() {
        @Override
        public void onSubscribe(Subscription arrived) {
          reader.onSubscribe(arrived);
          if (closed && !ended) {
            arrived.cancel();
          }
        }

        @Override
        public void onNext(ByteBuffer bytes) {
          reader.onNext(bytes);
        }

        @Override
        public void onError(Throwable failure) {
          ended = true;
          reader.onError(failure);
        }

        @Override
        public void onComplete() {
          ended = true;
          reader.onComplete();
        }
      };
    }

    private void markClosed() {
      closed = true;
    }
  }
}
