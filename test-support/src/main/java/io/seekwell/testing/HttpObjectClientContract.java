package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link ObjectClientContract} for clients that speak HTTP to a real store (the concrete class
 * carries {@link WithS3Server}), plus what the network does to them, injected by a {@link
 * FaultProxy} in front of the store. A client may retry inside itself (the CRT does), so for each
 * network fault it must give either the right bytes or a retryable failure: never a wrong byte, a
 * silent short body or an error that would stop Seekwell's resilience layer from trying again.
 */
public abstract class HttpObjectClientContract extends ObjectClientContract {

  private static final int LENGTH = 200_000;

  /** How long a client that streams bodies may take to answer once the headers are in. */
  private static final long ANSWER_AFTER_STALL_SECONDS = 5;

  /** How soon a request given up must have closed its connection: far below socket timeouts. */
  private static final long CLOSED_WITHIN_SECONDS = 10;

  private S3TestBucket bucket;
  private FaultProxy proxy;

  /**
   * A client under test that reaches the store at {@code endpoint} (where the test's objects are in
   * {@link #bucketName()}); the test closes it.
   */
  protected abstract ObjectClient client(S3Endpoint endpoint) throws Exception;

  /** The bucket the test's objects are in. */
  protected final String bucketName() {
    return bucket.name();
  }

  @BeforeEach
  void startProxy(S3TestBucket testBucket) throws IOException {
    bucket = testBucket;
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterEach
  void stopProxy() throws IOException {
    proxy.close();
  }

  private S3Endpoint throughProxy(String secretKey) {
    S3Endpoint endpoint = bucket.endpoint();
    return new S3Endpoint(proxy.uri(), endpoint.accessKey(), secretKey, endpoint.certificate());
  }

  @Override
  protected final ObjectClient client() throws Exception {
    return client(throughProxy(bucket.endpoint().secretKey()));
  }

  @Override
  protected final ObjectClient refusedClient(ObjectLocation location) throws Exception {
    return client(throughProxy("not-" + bucket.endpoint().secretKey()));
  }

  @Override
  protected final ObjectLocation put(String key, byte[] bytes) {
    bucket.put(key, bytes);
    return ObjectLocation.of(bucket.name(), key);
  }

  /** Waits, up to the test's wait, for {@code condition}, which real I/O makes true. */
  private static void awaitCondition(java.util.function.BooleanSupplier condition, String what)
      throws InterruptedException {
    awaitCondition(condition, what, WAIT_SECONDS);
  }

  private static void awaitCondition(
      java.util.function.BooleanSupplier condition, String what, long seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Not within " + seconds + " s: " + what);
      }
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  /** Reads {@code range}: the right bytes, or a retryable failure of the request or the body. */
  private void assertRightBytesOrRetryableFailure(
      ObjectClient client, byte[] bytes, ByteRange range) throws Exception {
    GetRequest request = GetRequest.of(ObjectLocation.of(bucket.name(), "faults.bin"), range);
    try (ObjectContent content = client.getObject(request).get(WAIT_SECONDS, TimeUnit.SECONDS)) {
      byte[] read = content.stream().readAllBytes();
      assertArrayEquals(
          Arrays.copyOfRange(bytes, (int) range.start(), (int) range.end() + 1), read);
    } catch (ExecutionException e) {
      assertTrue(ErrorKind.isRetryable(e.getCause()), () -> "not retryable: " + e.getCause());
    } catch (IOException e) {
      assertTrue(ErrorKind.isRetryable(e), () -> "not retryable: " + e);
    }
  }

  @ParameterizedTest(name = "a body cut with {0}")
  @EnumSource(
      value = ConnectionFault.class,
      names = {"CUT_FIN", "CUT_RST"})
  void aCutBodyGivesTheRightBytesOrARetryableFailure(ConnectionFault cut) throws Exception {
    byte[] bytes = TestData.randomBytes(11, LENGTH);
    put("faults.bin", bytes);
    proxy.faultConnections(cut, 1.0, 1);
    try (ObjectClient client = client()) {
      assertRightBytesOrRetryableFailure(client, bytes, ByteRange.of(0, LENGTH - 1));
    }
  }

  @Test
  void aSlowFirstByteStillGivesTheRightBytes() throws Exception {
    byte[] bytes = TestData.randomBytes(12, LENGTH);
    put("faults.bin", bytes);
    proxy.faultConnections(ConnectionFault.SLOW_FIRST_BYTE, 1.0, 1);
    try (ObjectClient client = client()) {
      assertArrayEquals(
          Arrays.copyOfRange(bytes, 1000, 101_000),
          read(
              client,
              GetRequest.of(
                  ObjectLocation.of(bucket.name(), "faults.bin"), ByteRange.of(1000, 100_999))));
    }
  }

  @Test
  void aRequestStalledBeforeItsHeadersIsAbandonedByCancellingIt() throws Exception {
    byte[] bytes = TestData.randomBytes(13, LENGTH);
    ObjectLocation location = put("faults.bin", bytes);
    proxy.faultConnections(ConnectionFault.STALL_BEFORE_HEADERS, 1.0, 1);
    try (ObjectClient client = client()) {
      CompletableFuture<ObjectContent> stalled =
          client.getObject(GetRequest.of(location, ByteRange.of(0, 999)));
      awaitCondition(() -> !proxy.requestHeads().isEmpty(), "the request reached the proxy");
      assertFalse(stalled.isDone(), "no answer can have come");
      assertTrue(stalled.cancel(true));
      proxy.stopFaultingConnections();
      assertArrayEquals(
          Arrays.copyOf(bytes, 1000), read(client, GetRequest.of(location, ByteRange.of(0, 999))));
    }
  }

  /**
   * A request stalled before its headers is given up at its {@link RequestOptions#headersTimeout()
   * headers timeout}: a client whose requests can be cancelled is cancelled then, as Seekwell's
   * resilience layer does, and a client that blocks until the headers come aborts the call by
   * itself. Either way the connection is closed then, not held until the socket times out (30 s or
   * more for every client here).
   */
  @Test
  void aRequestStalledPastItsHeadersTimeoutLeavesNoConnectionOpen() throws Exception {
    ObjectLocation location = put("faults.bin", TestData.randomBytes(15, LENGTH));
    proxy.faultConnections(ConnectionFault.STALL_BEFORE_HEADERS, 1.0, 1);
    Duration headersTimeout = Duration.ofMillis(300);
    try (ObjectClient client = client()) {
      CompletableFuture<ObjectContent> stalled =
          client.getObject(
              new GetRequest(
                  location,
                  ByteRange.of(0, 999),
                  Optional.empty(),
                  RequestOptions.none().withHeadersTimeout(headersTimeout)));
      awaitCondition(() -> !proxy.requestHeads().isEmpty(), "the request reached the proxy");
      try {
        stalled.get(headersTimeout.toMillis(), TimeUnit.MILLISECONDS);
        throw new AssertionError("a stalled request cannot have been answered");
      } catch (TimeoutException callerGivesUp) {
        stalled.cancel(true);
      } catch (ExecutionException clientGaveUp) {
        assertTrue(
            ErrorKind.isRetryable(clientGaveUp.getCause()), () -> "not retryable: " + clientGaveUp);
      }
      awaitCondition(
          () -> proxy.openConnections() == 0,
          "the stalled connection was closed",
          CLOSED_WITHIN_SECONDS);
    }
  }

  /**
   * A body that stops after 4 KiB. A client that hands over bodies as they arrive answers, and
   * closing the content from another thread must end a read blocked on it. A client that answers
   * only once it has the whole body (the CRT) never answers, and cancelling the request must end
   * it; either way the client stays usable.
   */
  @Test
  void aBodyStalledMidwayEndsWhenClosedOrCancelled() throws Exception {
    byte[] bytes = TestData.randomBytes(14, LENGTH);
    ObjectLocation location = put("faults.bin", bytes);
    proxy.faultConnections(ConnectionFault.STALL_BODY, 1.0, 1);
    try (ObjectClient client = client()) {
      CompletableFuture<ObjectContent> response =
          client.getObject(GetRequest.of(location, ByteRange.of(0, LENGTH - 1)));
      awaitCondition(
          () -> proxy.bytesToClients() >= FaultProxy.FAULT_AFTER_BYTES,
          "the body reached the stall");
      ObjectContent content;
      try {
        content = response.get(ANSWER_AFTER_STALL_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException buffering) {
        assertTrue(response.cancel(true));
        content = null;
      }
      if (content != null) {
        ObjectContent answered = content;
        CompletableFuture<byte[]> reader =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return answered.stream().readAllBytes();
                  } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                });
        answered.close();
        ExecutionException ended =
            assertThrows(
                ExecutionException.class, () -> reader.get(WAIT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(java.io.UncheckedIOException.class, ended.getCause());
      }
      proxy.stopFaultingConnections();
      assertArrayEquals(
          Arrays.copyOf(bytes, 1000), read(client, GetRequest.of(location, ByteRange.of(0, 999))));
    }
  }

  @ParameterizedTest(name = "HTTP {0} burst")
  @org.junit.jupiter.params.provider.ValueSource(ints = {500, 503})
  void serverErrorsAreRetryableStoreErrors(int status) throws Exception {
    byte[] bytes = TestData.randomBytes(15, LENGTH);
    put("faults.bin", bytes);
    proxy.failNextRequests(2, status, status == 503 ? "SlowDown" : "InternalError");
    try (ObjectClient client = client()) {
      GetRequest request =
          GetRequest.of(ObjectLocation.of(bucket.name(), "faults.bin"), ByteRange.of(0, 999));
      try (ObjectContent content = client.getObject(request).get(WAIT_SECONDS, TimeUnit.SECONDS)) {
        assertArrayEquals(Arrays.copyOf(bytes, 1000), content.stream().readAllBytes());
      } catch (ExecutionException e) {
        ObjectStoreException store = assertInstanceOf(ObjectStoreException.class, e.getCause());
        assertEquals(status, store.statusCode());
        assertTrue(store.isRetryable());
        assertEquals(status == 503 ? ErrorKind.THROTTLED : ErrorKind.SERVER, store.kind());
      }
    }
  }
}
