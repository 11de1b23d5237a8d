package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.CustomerKey;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/** A stream over an SSE-C object sends the key with its HEAD and GETs (MinIO over TLS). */
@WithS3Server(tls = true)
class StreamSseCustomerKeyMinioTest {

  private static void putEncrypted(
      S3TestBucket bucket, String key, byte[] content, CustomerKey customerKey) {
    bucket
        .admin()
        .putObject(
            b ->
                b.bucket(bucket.name())
                    .key(key)
                    .sseCustomerAlgorithm(CustomerKey.ALGORITHM)
                    .sseCustomerKey(customerKey.base64Key())
                    .sseCustomerKeyMD5(customerKey.base64KeyMd5()),
            RequestBody.fromBytes(content));
  }

  /** A sync client that trusts the test server's certificate. */
  private static S3Client client(S3TestBucket bucket) {
    Apache5HttpClient.Builder http = Apache5HttpClient.builder();
    bucket.endpoint().certificate().ifPresent(c -> http.tlsTrustManagersProvider(c::trustManagers));
    return bucket.endpoint().configure(S3Client.builder()).httpClientBuilder(http).build();
  }

  @Test
  void streamReadsAnEncryptedObjectWithItsKey(S3TestBucket bucket) throws Exception {
    byte[] content = TestData.randomBytes(41, 500_000);
    CustomerKey key = CustomerKey.of(TestData.randomBytes(42, 32));
    putEncrypted(bucket, "secret.bin", content, key);
    S3URI uri = S3URI.of(bucket.name(), "secret.bin");
    try (S3Client s3 = client(bucket);
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
      try (S3SeekableInputStream stream =
          factory.createStream(uri, OpenStreamInformation.builder().customerKey(key).build())) {
        byte[] bytes = new byte[200_000];
        stream.readFully(250_000, bytes, 0, bytes.length);
        assertArrayEquals(Arrays.copyOfRange(content, 250_000, 450_000), bytes);
      }
      assertEquals(1, factory.getMetrics().get(Metric.HEAD_REQUESTS));
      CustomerKey wrong = CustomerKey.of(TestData.randomBytes(43, 32));
      S3URI other = S3URI.of(bucket.name(), "secret.bin");
      try (S3SeekableInputStreamFactory fresh =
          new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
        assertThrows(
            AccessDeniedException.class,
            () ->
                fresh.createStream(
                    other, OpenStreamInformation.builder().customerKey(wrong).build()));
      }
    }
  }

  @Test
  void streamsWithoutTheKeyOrWithAnotherAreNeverServedWhatTheKeyDecrypted(S3TestBucket bucket)
      throws Exception {
    byte[] content = TestData.randomBytes(51, 300_000);
    CustomerKey key = CustomerKey.of(TestData.randomBytes(52, 32));
    CustomerKey wrong = CustomerKey.of(TestData.randomBytes(53, 32));
    putEncrypted(bucket, "shared-secret.bin", content, key);
    S3URI uri = S3URI.of(bucket.name(), "shared-secret.bin");
    try (S3Client s3 = client(bucket);
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
      byte[] bytes = new byte[100_000];
      try (S3SeekableInputStream stream =
          factory.createStream(uri, OpenStreamInformation.builder().customerKey(key).build())) {
        stream.readFully(100_000, bytes, 0, bytes.length);
      }
      assertArrayEquals(Arrays.copyOfRange(content, 100_000, 200_000), bytes);
      long gets = factory.getMetrics().get(Metric.GET_REQUESTS);

      OpenStreamInformation noKey =
          OpenStreamInformation.builder().objectLength(content.length).build();
      OpenStreamInformation wrongKey =
          OpenStreamInformation.builder().objectLength(content.length).customerKey(wrong).build();
      for (OpenStreamInformation open : List.of(noKey, wrongKey)) {
        try (S3SeekableInputStream stream = factory.createStream(uri, open)) {
          assertThrows(
              IOException.class, () -> stream.readFully(100_000, new byte[100_000], 0, 100_000));
        }
      }
      assertTrue(
          factory.getMetrics().get(Metric.GET_REQUESTS) >= gets + 2,
          "each stream sent its own GET instead of reading the cached plaintext");
      assertThrows(
          AccessDeniedException.class,
          () ->
              factory.createStream(
                  uri, OpenStreamInformation.builder().customerKey(wrong).build()));
      assertThrows(IOException.class, () -> factory.createStream(uri));

      try (S3SeekableInputStream again =
          factory.createStream(uri, OpenStreamInformation.builder().customerKey(key).build())) {
        again.readFully(100_000, bytes, 0, bytes.length);
      }
      assertArrayEquals(Arrays.copyOfRange(content, 100_000, 200_000), bytes);
    }
  }
}
