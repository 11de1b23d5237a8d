package io.seekwell;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.client.SdkClients;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * A shorter run of the model test against MinIO: random operation sequences compared with the
 * object's real bytes.
 */
@WithS3Server
class StreamMinioPropertyTest {

  private static final int LENGTH = 60_000;
  private static final byte[] CONTENT = TestData.randomBytes(31, LENGTH);

  private static S3TestBucket bucket;
  private static S3AsyncClient s3;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    bucket.put("model/object.bin", CONTENT);
    s3 =
        bucket
            .endpoint()
            .configure(S3AsyncClient.builder())
            .httpClientBuilder(SdkClients.nettyHttpClient(ObjectClientConfiguration.defaults()))
            .build();
  }

  @AfterAll
  static void closeClient() {
    s3.close();
  }

  @RepeatedTest(20)
  void randomOperationsMatchTheModel(RepetitionInfo repetition) throws Exception {
    // Drawn by jqwik's sampler; a failure names the operation sequence that failed.
    List<StreamModelPropertyTest.Op> ops = new StreamModelPropertyTest().operations().sample();
    PhysicalIOConfiguration physicalIO =
        StreamModelPropertyTest.smallRequests(repetition.getCurrentRepetition() % 2 == 0);
    try (S3SeekableInputStreamFactory factory =
            StreamModelPropertyTest.factory(new S3SdkObjectClient(s3), physicalIO);
        S3SeekableInputStream stream =
            factory.createStream(S3URI.of(bucket.name(), "model/object.bin"))) {
      StreamModelPropertyTest.applyAll(ops, stream, new StreamModelPropertyTest.Model(CONTENT));
    }
  }
}
