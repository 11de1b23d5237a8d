package io.seekwell.bench.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A {@link RequestCounter} counts, for every kind of client the benchmarks use, what a GET response
 * carried apart from what arrived: equal for a body read to its end, the rest of the body apart for
 * one abandoned early.
 */
@WithS3Server
class RequestCounterMinioTest {

  private static final String KEY = "counted.bin";
  private static final int LENGTH = 1 << 20;

  private byte[] content;

  @BeforeEach
  void upload(S3TestBucket bucket) {
    content = TestData.randomBytes(17, LENGTH);
    bucket.put(KEY, content);
  }

  @Test
  void syncBodyReadToItsEndArrivesWhole(S3TestBucket bucket) throws Exception {
    RequestCounter counter = new RequestCounter();
    try (S3Client client = sync(bucket, counter)) {
      byte[] read = client.getObjectAsBytes(b -> b.bucket(bucket.name()).key(KEY)).asByteArray();
      byte[] range =
          client
              .getObjectAsBytes(b -> b.bucket(bucket.name()).key(KEY).range("bytes=10-19"))
              .asByteArray();

      assertArrayEquals(content, read);
      assertArrayEquals(Arrays.copyOfRange(content, 10, 20), range);
    }
    assertEquals(2, counter.gets());
    assertEquals(LENGTH + 10, counter.responseBytes());
    assertEquals(LENGTH + 10, counter.bytes());
  }

  @Test
  void syncBodyAbandonedEarlyCarriedMoreThanArrived(S3TestBucket bucket) throws Exception {
    RequestCounter counter = new RequestCounter();
    try (S3Client client = sync(bucket, counter);
        ResponseInputStream<GetObjectResponse> body =
            client.getObject(b -> b.bucket(bucket.name()).key(KEY))) {
      byte[] first = body.readNBytes(1024);
      body.abort();

      assertArrayEquals(Arrays.copyOf(content, 1024), first);
    }
    assertEquals(1, counter.gets());
    assertEquals(LENGTH, counter.responseBytes());
    assertTrue(
        counter.bytes() >= 1024 && counter.bytes() < LENGTH,
        counter.bytes() + " bytes arrived of a body abandoned after 1 KiB");
  }

  @Test
  void nettyBodyReadToItsEndArrivesWhole(S3TestBucket bucket) throws Exception {
    RequestCounter counter = new RequestCounter();
    try (S3AsyncClient client =
        Clients.async(bucket.endpoint().uri(), bucket.endpoint().credentials(), counter)) {
      assertArrayEquals(content, readWhole(client, bucket));
    }
    assertWholeBodyCounted(counter);
  }

  @Test
  void crtBodyReadToItsEndArrivesWhole(S3TestBucket bucket) throws Exception {
    RequestCounter counter = new RequestCounter();
    try (S3AsyncClient client =
        Clients.crt(
            bucket.endpoint().uri(),
            bucket.endpoint().credentials(),
            counter,
            ObjectClientConfiguration.defaults())) {
      assertArrayEquals(content, readWhole(client, bucket));
    }
    assertWholeBodyCounted(counter);
  }

  @Test
  void failedGetCarriesNothing(S3TestBucket bucket) throws Exception {
    RequestCounter counter = new RequestCounter();
    try (S3Client client = sync(bucket, counter)) {
      assertThrows(
          NoSuchKeyException.class,
          () -> client.getObjectAsBytes(b -> b.bucket(bucket.name()).key("absent")));
    }
    assertEquals(1, counter.gets());
    assertEquals(0, counter.responseBytes());
  }

  private static S3Client sync(S3TestBucket bucket, RequestCounter counter) {
    return Clients.sync(bucket.endpoint().uri(), bucket.endpoint().credentials(), counter);
  }

  private static byte[] readWhole(S3AsyncClient client, S3TestBucket bucket) {
    return client
        .getObject(b -> b.bucket(bucket.name()).key(KEY), AsyncResponseTransformer.toBytes())
        .join()
        .asByteArray();
  }

  private static void assertWholeBodyCounted(RequestCounter counter) {
    assertEquals(1, counter.gets());
    assertEquals(LENGTH, counter.responseBytes());
    assertEquals(LENGTH, counter.bytes());
  }
}
