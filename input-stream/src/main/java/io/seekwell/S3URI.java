package io.seekwell;

import io.seekwell.common.object.ObjectLocation;
import java.util.Locale;
import java.util.Objects;

/**
 * The address of an S3 object: a bucket and a key. Immutable and thread-safe.
 *
 * @param bucket the bucket
 * @param key the object key, without a leading slash
 */
public record S3URI(String bucket, String key) {

  /**
   * Creates the address.
   *
   * @throws IllegalArgumentException if the bucket or key is empty
   */
  public S3URI {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    if (bucket.isEmpty() || key.isEmpty()) {
      throw new IllegalArgumentException(
          "An S3 URI needs a bucket and a key, got bucket '" + bucket + "' and key '" + key + "'");
    }
  }

  /** The object {@code key} in {@code bucket}. */
  public static S3URI of(String bucket, String key) {
    return new S3URI(bucket, key);
  }

  /**
   * Parses {@code s3://bucket/key}; the schemes {@code s3a} and {@code s3n} are accepted too.
   *
   * @throws IllegalArgumentException if the text is not such a URI
   */
  public static S3URI parse(String uri) {
    Objects.requireNonNull(uri, "uri");
    int schemeEnd = uri.indexOf("://");
    String scheme = schemeEnd < 0 ? "" : uri.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
    if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
      throw new IllegalArgumentException(
          "Not an S3 URI (expected s3://, s3a:// or s3n://bucket/key): " + uri);
    }
    String rest = uri.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      throw new IllegalArgumentException("An S3 URI needs a bucket and a key: " + uri);
    }
    return new S3URI(rest.substring(0, slash), rest.substring(slash + 1));
  }

  /** The same object as the object client's location type. */
  public ObjectLocation location() {
    return ObjectLocation.of(bucket, key);
  }

  /** The address as {@code s3://bucket/key}. */
  @Override
  public String toString() {
    return "s3://" + bucket + "/" + key;
  }
}
