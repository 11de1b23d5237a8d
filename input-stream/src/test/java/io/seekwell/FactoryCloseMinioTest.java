package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Closing a factory while a GET is stalled on the real HTTP path (the sync Apache client behind a
 * proxy that stops forwarding the body) aborts the GET: the reader fails, and no fetch thread and
 * no reserved byte is left.
 */
@WithS3Server
class FactoryCloseMinioTest {

  @Test
  void closingAbortsAStalledGetAndLeavesNoThreadOrReservation(S3TestBucket bucket)
      throws Exception {
    bucket.put("stalled.bin", TestData.randomBytes(61, 4 * 1024 * 1024));
    ObjectClientConfiguration patient =
        ObjectClientConfiguration.builder()
            .stallFloor(Duration.ofMinutes(5))
            .readIdleTimeout(Duration.ofMinutes(5))
            .firstByteTimeout(Duration.ofMinutes(5))
            .hedgeMaxCopies(0)
            .build();
    Set<Thread> before = fetchThreads();
    try (FaultProxy proxy = FaultProxy.start(bucket.endpoint().uri());
        S3Client s3 =
            bucket
                .endpoint()
                .configure(S3Client.builder())
                .endpointOverride(proxy.uri())
                .httpClientBuilder(SdkClients.apacheHttpClient(patient))
                .overrideConfiguration(SdkClients.withoutSdkRetries())
                .build()) {
      S3SeekableInputStreamFactory factory =
          new S3SeekableInputStreamFactory(
              s3, S3SeekableInputStreamConfiguration.builder().client(patient).build());
      S3SeekableInputStream stream =
          factory.createStream(
              S3URI.of(bucket.name(), "stalled.bin"),
              OpenStreamInformation.builder().objectLength(4 * 1024 * 1024).build());
      proxy.stallNextResponseAfter(5_000);
      CompletableFuture<Void> read =
          CompletableFuture.runAsync(
              () -> {
                try {
                  stream.readFully(0, new byte[1024 * 1024], 0, 1024 * 1024);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      Conditions.await(
          () -> proxy.bytesToClients() >= 5_000,
          Duration.ofSeconds(5),
          "the GET reached the stall");
      assertTrue(factory.getMemoryUsage().used() > 0);

      factory.close();

      ExecutionException failure =
          org.junit.jupiter.api.Assertions.assertThrows(
              ExecutionException.class, () -> read.get(30, TimeUnit.SECONDS));
      assertInstanceOf(IOException.class, failure.getCause().getCause());
      assertEquals(0, factory.getMemoryUsage().used(), "no reservation is left");
      Set<Thread> left = fetchThreads();
      left.removeAll(before);
      // The pool has terminated once close returns; a worker that has just left its last task
      // can still be alive for a moment while the JVM ends the thread.
      for (Thread thread : left) {
        thread.join(5_000);
      }
      left.removeIf(thread -> !thread.isAlive());
      assertEquals(Set.of(), left, "no fetch thread is left");
      stream.close();
    }
  }

  private static Set<Thread> fetchThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("seekwell-fetch-") && thread.isAlive())
        .collect(Collectors.toSet());
  }
}
