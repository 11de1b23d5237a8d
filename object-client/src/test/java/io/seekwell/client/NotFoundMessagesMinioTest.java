package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.FileNotFoundException;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each SDK client says whether the bucket or the key is missing, on a HEAD as on a GET. */
@WithS3Server
class NotFoundMessagesMinioTest {

  private static S3TestBucket bucket;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    bucket.put("present.bin", new byte[10]);
  }

  private static String notFound(CompletableFuture<?> request) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> request.get(30, TimeUnit.SECONDS));
    return assertInstanceOf(FileNotFoundException.class, e.getCause()).getMessage();
  }

  private static void assertSays(String expected, String message) {
    assertTrue(message.contains(expected), message);
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void aMissingBucketSaysBucketAndAMissingKeySaysObject(SdkClientKind kind) throws Exception {
    String absent = "sw-no-such-bucket-" + kind.name().toLowerCase(Locale.ROOT);
    ObjectLocation inNoBucket = ObjectLocation.of(absent, "data/file.parquet");
    ObjectLocation noKey = ObjectLocation.of(bucket.name(), "missing.bin");
    try (SdkClientKind.Clients clients =
        kind.open(bucket.endpoint(), ObjectClientConfiguration.defaults(), new Metrics())) {
      assertSays(
          "HEAD s3://" + absent + "/data/file.parquet: bucket not found (HTTP 404",
          notFound(clients.client().headObject(HeadRequest.of(inNoBucket))));
      assertSays(
          "s3://" + absent + "/data/file.parquet [0-9]: bucket not found (HTTP 404 NoSuchBucket",
          notFound(clients.client().getObject(GetRequest.of(inNoBucket, ByteRange.of(0, 9)))));
      for (int i = 0; i < 2; i++) { // the second HEAD finds the bucket known to exist
        assertSays(
            "HEAD s3://" + bucket.name() + "/missing.bin: object not found (HTTP 404",
            notFound(clients.client().headObject(HeadRequest.of(noKey))));
      }
      assertSays(
          "s3://" + bucket.name() + "/missing.bin [0-9]: object not found (HTTP 404 NoSuchKey",
          notFound(clients.client().getObject(GetRequest.of(noKey, ByteRange.of(0, 9)))));
    }
  }
}
