package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/** A {@link FaultProxy} counts the GETs of objects apart from listings and HEADs. */
@WithS3Server
class FaultProxyCountsMinioTest {

  @Test
  void objectGetsAreCountedApartFromListingsAndHeads(S3TestBucket bucket) throws Exception {
    bucket.put("dir/counted.bin", TestData.randomBytes(3, 4096));
    try (FaultProxy proxy = FaultProxy.start(bucket.endpoint().uri());
        S3Client client = bucket.endpoint().via(proxy.uri()).newAdminClient()) {
      client.headObject(b -> b.bucket(bucket.name()).key("dir/counted.bin"));
      client.listObjectsV2(b -> b.bucket(bucket.name()).prefix("dir/"));
      client.getObjectAsBytes(b -> b.bucket(bucket.name()).key("dir/counted.bin"));
      client.getObjectAsBytes(
          b -> b.bucket(bucket.name()).key("dir/counted.bin").range("bytes=10-19"));

      assertEquals(4, proxy.forwardedRequests());
      assertEquals(2, proxy.forwardedObjectGets());
    }
  }
}
