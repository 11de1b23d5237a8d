package io.seekwell.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The body's subscription arrives when the test says, as an HTTP client's arrives on its own thread
 * after the SDK has handed out the stream.
 */
class BlockingBodyTransformerTest {

  private static final byte[] BODY = "twelve bytes".getBytes(UTF_8);

  private final BlockingBodyTransformer transformer = new BlockingBodyTransformer();
  private final LateBody body = new LateBody();

  @Test
  void aStreamClosedBeforeItsSubscriptionArrivesCancelsItWhenItDoes() throws Exception {
    assertCancelsALateSubscription(ResponseInputStream::close);
  }

  @Test
  void aStreamAbortedBeforeItsSubscriptionArrivesCancelsItWhenItDoes() throws Exception {
    assertCancelsALateSubscription(ResponseInputStream::abort);
  }

  @Test
  void aBodyReadToItsEndIsNotCancelledWhenItsStreamCloses() throws Exception {
    ResponseInputStream<GetObjectResponse> stream = handedOut();
    body.subscribe();
    body.send(BODY);
    body.complete();
    assertArrayEquals(BODY, stream.readAllBytes());
    stream.close();
    assertEquals(0, body.cancels.get());
  }

  @Test
  void aBodySentWholeWhileItsSubscriptionIsHandedOverIsNotCancelledByAClose() throws Exception {
    ResponseInputStream<GetObjectResponse> stream = handedOut();
    // The body's publisher sends it all as soon as it is asked, and the reader, on another thread
    // in production, closes the stream before the subscription's hand-over returns.
    body.whenRequested(
        () -> {
          body.send(BODY);
          body.complete();
          stream.close();
        });
    body.subscribe();
    assertEquals(0, body.cancels.get());
  }

  @Test
  void aStreamClosedAfterItsSubscriptionArrivedIsCancelledOnce() throws Exception {
    ResponseInputStream<GetObjectResponse> stream = handedOut();
    body.subscribe();
    stream.close();
    assertEquals(1, body.cancels.get());
  }

  @Test
  void eachAttemptWatchesItsOwnStream() throws Exception {
    handedOut().close();
    LateBody retried = new LateBody();
    ResponseInputStream<GetObjectResponse> stream = handedOut(retried);
    retried.subscribe();
    retried.send(BODY);
    retried.complete();
    body.subscribe();
    assertArrayEquals(BODY, stream.readAllBytes());
    assertEquals(0, retried.cancels.get());
    assertEquals(1, body.cancels.get());
  }

  private void assertCancelsALateSubscription(Closing closing) throws Exception {
    closing.close(handedOut());
    assertEquals(0, body.cancels.get());
    body.subscribe();
    assertEquals(1, body.cancels.get());
  }

  private ResponseInputStream<GetObjectResponse> handedOut() {
    return handedOut(body);
  }

  /** One attempt: the response, then the body, whose subscription has not arrived yet. */
  private ResponseInputStream<GetObjectResponse> handedOut(LateBody attemptBody) {
    var stream = transformer.prepare();
    transformer.onResponse(GetObjectResponse.builder().contentLength((long) BODY.length).build());
    transformer.onStream(attemptBody::subscribedBy);
    return stream.join();
  }

  private interface Closing {
    void close(ResponseInputStream<GetObjectResponse> stream) throws Exception;
  }

  /** What a body's publisher does when its subscriber first asks for bytes. */
  private interface Request {
    void run() throws IOException;
  }

  /**
   * A body whose subscriber gets its subscription, bytes and end only when told to, or when it
   * first asks for bytes.
   */
  private static final class LateBody {

    final AtomicInteger cancels = new AtomicInteger();
    private Subscriber<? super ByteBuffer> subscriber;
    private Request firstRequest = () -> {};

    void subscribedBy(Subscriber<? super ByteBuffer> subscriber) {
      this.subscriber = subscriber;
    }

    void whenRequested(Request request) {
      firstRequest = request;
    }

    void subscribe() {
      subscriber.onSubscribe(
          new Subscription() {
            @Override
            public void request(long n) {
              Request request = firstRequest;
              firstRequest = () -> {};
              try {
                request.run();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }

            @Override
            public void cancel() {
              cancels.incrementAndGet();
            }
          });
    }

    void send(byte[] bytes) {
      subscriber.onNext(ByteBuffer.wrap(bytes));
    }

    void complete() {
      subscriber.onComplete();
    }
  }
}
