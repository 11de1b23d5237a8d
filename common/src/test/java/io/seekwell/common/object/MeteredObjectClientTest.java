package io.seekwell.common.object;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class MeteredObjectClientTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("b", "k");

  /** Answers every GET with {@code body} (or fails with {@code failure}) and every HEAD alike. */
  private record FixedClient(InputStream body, IOException failure) implements ObjectClient {
    @Override
    public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
      return failure != null
          ? CompletableFuture.failedFuture(failure)
          : CompletableFuture.completedFuture(ObjectMetadata.of(10, "e"));
    }

    @Override
    public CompletableFuture<ObjectContent> getObject(GetRequest request) {
      return failure != null
          ? CompletableFuture.failedFuture(failure)
          : CompletableFuture.completedFuture(new ObjectContent(request.range(), "e", body));
    }

    @Override
    public void close() {}
  }

  @Test
  void countsRequestsAndBodyBytes() throws Exception {
    Metrics metrics = new Metrics();
    byte[] bytes = {1, 2, 3, 4, 5};
    try (MeteredObjectClient client =
        new MeteredObjectClient(new FixedClient(new ByteArrayInputStream(bytes), null), metrics)) {
      client.headObject(HeadRequest.of(OBJECT)).get();
      try (ObjectContent content =
          client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 4))).get()) {
        assertArrayEquals(bytes, content.stream().readAllBytes());
      }
    }
    assertEquals(1, metrics.get(Metric.HEAD_REQUESTS));
    assertEquals(1, metrics.get(Metric.GET_REQUESTS));
    assertEquals(5, metrics.get(Metric.BYTES_RECEIVED));
  }

  @Test
  void countsFailuresByKind() {
    Metrics metrics = new Metrics();
    IOException[] failures = {
      new FileNotFoundException(),
      new AccessDeniedException("x"),
      new ObjectChangedException("x", null),
      new EOFException(),
      new ObjectStoreException("x", 503, "SlowDown", null, true, null),
      new ObjectStoreException("x", 500, "InternalError", null, true, null),
      new ObjectStoreException("x", 0, null, null, true, null),
      new ObjectStoreException("x", 400, "InvalidArgument", null, false, null),
    };
    for (IOException failure : failures) {
      MeteredObjectClient client = new MeteredObjectClient(new FixedClient(null, failure), metrics);
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 1))).get());
      assertEquals(failure, e.getCause());
    }
    for (Metric kind :
        new Metric[] {
          Metric.ERRORS_NOT_FOUND,
          Metric.ERRORS_ACCESS_DENIED,
          Metric.ERRORS_OBJECT_CHANGED,
          Metric.ERRORS_RANGE,
          Metric.ERRORS_THROTTLED,
          Metric.ERRORS_SERVER,
          Metric.ERRORS_NETWORK,
          Metric.ERRORS_OTHER
        }) {
      assertEquals(1, metrics.get(kind), kind::name);
    }
    assertEquals(8, metrics.get(Metric.GET_REQUESTS));
  }

  @Test
  void bodyFailuresAreCounted() throws Exception {
    Metrics metrics = new Metrics();
    InputStream broken =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw new SocketException("reset");
          }
        };
    MeteredObjectClient client = new MeteredObjectClient(new FixedClient(broken, null), metrics);
    ObjectContent content = client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 1))).get();
    assertThrows(SocketException.class, () -> content.stream().read());
    assertEquals(1, metrics.get(Metric.ERRORS_NETWORK));
    assertEquals(Metric.ERRORS_OTHER, ErrorKind.of(new IllegalStateException()).metric());
    assertEquals(
        Metric.ERRORS_NOT_FOUND,
        ErrorKind.of(new CompletionException(new FileNotFoundException())).metric());
  }
}
