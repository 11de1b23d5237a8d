package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

class MissingBucketCheckTest {

  private static final HeadRequest HEAD = HeadRequest.of(ObjectLocation.of("bucket", "key"));

  private final List<String> asked = new ArrayList<>();
  private CompletableFuture<?> bucketAnswer = CompletableFuture.completedFuture(null);
  private final MissingBucketCheck check =
      new MissingBucketCheck(
          bucket -> {
            asked.add(bucket);
            return bucketAnswer;
          });

  private static CompletableFuture<ObjectMetadata> notFound() {
    return CompletableFuture.failedFuture(
        new FileNotFoundException("HEAD s3://bucket/key: object not found"));
  }

  private static Throwable failure(CompletableFuture<ObjectMetadata> future) {
    return assertThrows(ExecutionException.class, future::get).getCause();
  }

  @Test
  void aKeyMissingFromAnExistingBucketAsksAboutTheBucketOnce() {
    FileNotFoundException first =
        assertInstanceOf(FileNotFoundException.class, failure(check.naming(notFound(), HEAD)));
    assertTrue(first.getMessage().contains("object not found"), first.getMessage());
    failure(check.naming(notFound(), HEAD));
    assertEquals(List.of("bucket"), asked);
  }

  @Test
  void aMissingBucketIsNamedAndAskedAboutEachTime() {
    bucketAnswer =
        CompletableFuture.failedFuture(
            NoSuchBucketException.builder()
                .statusCode(404)
                .requestId("r1")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("NoSuchBucket").build())
                .build());
    for (int i = 0; i < 2; i++) {
      FileNotFoundException missing =
          assertInstanceOf(FileNotFoundException.class, failure(check.naming(notFound(), HEAD)));
      assertEquals(
          "HEAD s3://bucket/key: bucket not found (HTTP 404 NoSuchBucket, request id r1)",
          missing.getMessage());
    }
    assertEquals(List.of("bucket", "bucket"), asked);
  }

  @Test
  void aBucketWeMayNotAskAboutLeavesTheKeyMissing() {
    bucketAnswer = CompletableFuture.failedFuture(S3Exception.builder().statusCode(403).build());
    Throwable failure = failure(check.naming(notFound(), HEAD));
    assertTrue(failure.getMessage().contains("object not found"), failure.getMessage());
    failure(check.naming(notFound(), HEAD));
    assertEquals(List.of("bucket"), asked, "taken as existing");
  }

  @Test
  void otherFailuresAndAnswersPassUntouched() throws Exception {
    IOException reset = new IOException("reset");
    assertSame(reset, failure(check.naming(CompletableFuture.failedFuture(reset), HEAD)));
    ObjectMetadata metadata = ObjectMetadata.of(10, "etag");
    assertSame(metadata, check.naming(CompletableFuture.completedFuture(metadata), HEAD).get());
    assertEquals(List.of(), asked);
  }
}
