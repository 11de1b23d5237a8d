package io.seekwell.bench.store;

import java.util.function.Supplier;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The one upload routine of the benchmarks: a bucket made if missing, and an object put only if the
 * store does not hold one of its length yet, so that data sets are uploaded once and reused.
 */
public final class Uploads {

  private Uploads() {}

  /** Creates {@code bucket} if the store does not have it. */
  public static void ensureBucket(S3Client admin, String bucket) {
    try {
      admin.headBucket(b -> b.bucket(bucket));
    } catch (NoSuchBucketException e) {
      admin.createBucket(b -> b.bucket(bucket));
    }
  }

  /**
   * Puts {@code body} at {@code key} unless the store holds an object of {@code length} bytes
   * there; whether it put it.
   */
  public static boolean putIfMissing(
      S3Client admin, String bucket, String key, long length, Supplier<RequestBody> body) {
    try {
      if (admin.headObject(b -> b.bucket(bucket).key(key)).contentLength() == length) {
        return false;
      }
    } catch (NoSuchKeyException e) {
      System.out.println("... uploading " + key);
    }
    admin.putObject(b -> b.bucket(bucket).key(key), body.get());
    return true;
  }
}
