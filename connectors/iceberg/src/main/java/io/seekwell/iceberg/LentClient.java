package io.seekwell.iceberg;

import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ServiceClientConfiguration;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The client a FileIO copy lends to a shared Seekwell factory: each call goes to the client the
 * copy reads the role's locations with at that moment, so that a client Iceberg rebuilt (new
 * storage credentials close and replace a FileIO's clients) is used from then on. Passes on the
 * calls Seekwell's blocking object client makes (HEAD and GET of objects, HEAD of a bucket);
 * closing it closes nothing, as the clients are Iceberg's. Thread-safe.
 */
final class LentClient implements S3Client {

  private final SeekwellS3FileIO lender;
  private final String location;

  /** The client {@code lender} reads {@code location} (and its role's other locations) with. */
  LentClient(SeekwellS3FileIO lender, String location) {
    this.lender = lender;
    this.location = location;
  }

  private S3Client current() {
    return lender.client(location);
  }

  @Override
  public <T> T getObject(
      GetObjectRequest request, ResponseTransformer<GetObjectResponse, T> transformer) {
    return current().getObject(request, transformer);
  }

  @Override
  public HeadObjectResponse headObject(HeadObjectRequest request) {
    return current().headObject(request);
  }

  @Override
  public HeadBucketResponse headBucket(HeadBucketRequest request) {
    return current().headBucket(request);
  }

  @Override
  public S3ServiceClientConfiguration serviceClientConfiguration() {
    return current().serviceClientConfiguration();
  }

  @Override
  public String serviceName() {
    return SERVICE_NAME;
  }

  /** Closes nothing: the lender's clients are Iceberg's. */
  @Override
  public void close() {
    // The lender closes its clients (SharedReads says when).
  }
}
