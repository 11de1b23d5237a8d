package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A bandwidth-limited {@link FaultProxy} forwards every byte of a response, in order, whatever the
 * limit, and refuses a negative one. (How fast bytes pass is the benchmark's to measure.)
 */
@WithS3Server
class FaultProxyBandwidthMinioTest {

  private static final int LENGTH = 3 * 1024 * 1024 + 17;

  @Test
  void aLimitedConnectionDeliversEveryByte(S3TestBucket bucket) throws Exception {
    byte[] content = TestData.randomBytes(5, LENGTH);
    bucket.put("limited.bin", content);
    try (FaultProxy proxy = FaultProxy.start(bucket.endpoint().uri());
        S3Client client = bucket.endpoint().via(proxy.uri()).newAdminClient()) {
      for (long limit : new long[] {16L << 20, 90L << 20, 0}) {
        proxy.limitBandwidth(limit);
        byte[] read =
            client.getObjectAsBytes(b -> b.bucket(bucket.name()).key("limited.bin")).asByteArray();
        assertArrayEquals(content, read, "limit " + limit);
      }
      assertEquals(3, proxy.forwardedRequests());
    }
  }

  @Test
  void aNegativeLimitIsRefused(S3TestBucket bucket) throws Exception {
    try (FaultProxy proxy = FaultProxy.start(bucket.endpoint().uri())) {
      assertThrows(IllegalArgumentException.class, () -> proxy.limitBandwidth(-1));
    }
  }
}
