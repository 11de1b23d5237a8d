package io.seekwell.client;

import static io.seekwell.client.S3ObjectClientMinioTest.failure;
import static io.seekwell.client.S3ObjectClientMinioTest.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.CustomerKey;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;

/** SSE-C round trips against a MinIO speaking TLS (MinIO accepts SSE-C only over TLS). */
@WithS3Server(tls = true)
class SseCustomerKeyMinioTest {

  private static final int LENGTH = 300_000;
  private static final byte[] CONTENT = TestData.randomBytes(11, LENGTH);
  private static final CustomerKey KEY = CustomerKey.of(TestData.randomBytes(1, 32));
  private static final CustomerKey WRONG_KEY = CustomerKey.of(TestData.randomBytes(2, 32));

  private static S3TestBucket bucket;
  private static ObjectLocation object;

  @BeforeAll
  static void uploadEncrypted(S3TestBucket testBucket) {
    bucket = testBucket;
    object = ObjectLocation.of(bucket.name(), "secret/object.bin");
    bucket
        .admin()
        .putObject(
            b ->
                b.bucket(bucket.name())
                    .key(object.key())
                    .sseCustomerAlgorithm(CustomerKey.ALGORITHM)
                    .sseCustomerKey(KEY.base64Key())
                    .sseCustomerKeyMD5(KEY.base64KeyMd5()),
            RequestBody.fromBytes(CONTENT));
  }

  private static SdkClientKind.Clients open(SdkClientKind kind) {
    return kind.open(bucket.endpoint(), ObjectClientConfiguration.defaults(), new Metrics());
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void theRightKeyReadsTheObject(SdkClientKind kind) throws Exception {
    RequestOptions options = RequestOptions.none().withCustomerKey(KEY);
    try (SdkClientKind.Clients clients = open(kind)) {
      ObjectMetadata metadata =
          clients.client().headObject(new HeadRequest(object, options)).get(30, TimeUnit.SECONDS);
      assertEquals(LENGTH, metadata.length());
      ByteRange range = ByteRange.of(1000, 200_000);
      byte[] bytes =
          read(
              clients.client(),
              GetRequest.of(object, range).withEtag(metadata.etag()).withOptions(options));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 1000, 200_001), bytes);
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void aWrongOrMissingKeyIsAClearError(SdkClientKind kind) throws Exception {
    try (SdkClientKind.Clients clients = open(kind)) {
      GetRequest wrongKey =
          GetRequest.of(object, ByteRange.of(0, 9))
              .withOptions(RequestOptions.none().withCustomerKey(WRONG_KEY));
      AccessDeniedException denied =
          failure(AccessDeniedException.class, clients.client().getObject(wrongKey));
      assertTrue(
          denied.getMessage().startsWith("GET " + object + " [0-9] with SSE-C key (MD5 "),
          denied.getMessage());
      assertTrue(denied.getMessage().contains("HTTP 403"), denied.getMessage());

      ObjectStoreException noKey =
          failure(
              ObjectStoreException.class,
              clients.client().getObject(GetRequest.of(object, ByteRange.of(0, 9))));
      assertEquals(400, noKey.statusCode());
      assertTrue(noKey.getMessage().contains("Server Side Encryption"), noKey.getMessage());
      assertFalse(noKey.isRetryable());

      // A HEAD needs the key too: without it the store refuses, so the key must have been sent
      // when the HEAD above succeeded.
      ExecutionException headWithoutKey =
          assertThrows(
              ExecutionException.class,
              () -> clients.client().headObject(HeadRequest.of(object)).get(30, TimeUnit.SECONDS));
      assertTrue(
          headWithoutKey.getCause().getMessage().startsWith("HEAD " + object),
          headWithoutKey.getCause()::toString);
    }
  }
}
