package io.seekwell.testing;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * A bucket of its own for one test class on a real S3-compatible server, with a client for set-up.
 * Thread-safe.
 *
 * @param endpoint the server
 * @param name the bucket's name
 * @param admin an SDK client for set-up, owned by the extension
 */
public record S3TestBucket(S3Endpoint endpoint, String name, S3Client admin) {

  /** Uploads {@code bytes} as {@code key} and returns the object's ETag. */
  public String put(String key, byte[] bytes) {
    PutObjectResponse response =
        admin.putObject(b -> b.bucket(name).key(key), RequestBody.fromBytes(bytes));
    return response.eTag();
  }

  /** Deletes {@code key}. */
  public void delete(String key) {
    admin.deleteObject(b -> b.bucket(name).key(key));
  }
}
