package io.seekwell.common.object;

import java.util.Objects;

/** The bucket and key of an object. Immutable and thread-safe. */
public record ObjectLocation(String bucket, String key) {

  /**
   * Creates a location.
   *
   * @throws IllegalArgumentException if the bucket or key is empty
   */
  public ObjectLocation {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    if (bucket.isEmpty()) {
      throw new IllegalArgumentException("Bucket must not be empty");
    }
    if (key.isEmpty()) {
      throw new IllegalArgumentException("Key must not be empty (bucket " + bucket + ")");
    }
  }

  /** The location of {@code key} in {@code bucket}. */
  public static ObjectLocation of(String bucket, String key) {
    return new ObjectLocation(bucket, key);
  }

  /** The location as {@code s3://bucket/key}. */
  @Override
  public String toString() {
    return "s3://" + bucket + "/" + key;
  }
}
