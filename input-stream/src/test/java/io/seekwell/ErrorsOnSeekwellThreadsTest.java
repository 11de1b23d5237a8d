package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * An {@link Error} thrown while a GET is sent (say, a {@link NoSuchMethodError} from an SDK older
 * than the one Seekwell was built with) fails the read that needed it, and never reaches a thread's
 * uncaught handler: engines such as Spark end the JVM there.
 */
class ErrorsOnSeekwellThreadsTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "data.bin");

  @Test
  void anErrorSendingAGetFailsTheReadThatNeededIt() throws Exception {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(OBJECT, TestData.randomBytes(1, 10_000));
    ObjectClient brokenGets =
        new ObjectClient() {
          @Override
          public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
            return store.headObject(request);
          }

          @Override
          public CompletableFuture<ObjectContent> getObject(GetRequest request) {
            throw new NoSuchMethodError("DigestAlgorithm.getDigest()");
          }

          @Override
          public void close() {
            store.close();
          }
        };
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(
            brokenGets,
            S3SeekableInputStreamConfiguration.builder()
                .physicalIO(PhysicalIOConfiguration.DEFAULT)
                .logicalIO(LogicalIOConfiguration.OFF)
                .build())) {
      try (S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "data.bin"))) {
        IOException error = assertThrows(IOException.class, stream::read);
        Throwable cause = error;
        while (cause.getCause() != null && !(cause instanceof Error)) {
          cause = cause.getCause();
        }
        assertInstanceOf(NoSuchMethodError.class, cause, () -> error.toString());
      }
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(previous);
    }
    assertEquals(List.of(), uncaught);
  }
}
