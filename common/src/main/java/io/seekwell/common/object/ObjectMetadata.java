package io.seekwell.common.object;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a HEAD tells about an object. Immutable and thread-safe.
 *
 * @param length the object's length in bytes
 * @param etag the store's entity tag of this version of the object
 * @param lastModified when the store last wrote the object, if it says
 * @param versionId the object's version id, if the bucket is versioned
 */
public record ObjectMetadata(
    long length, String etag, Optional<Instant> lastModified, Optional<String> versionId) {

  /** Creates metadata; {@code length} must be non-negative and the ETag non-null. */
  public ObjectMetadata {
    if (length < 0) {
      throw new IllegalArgumentException("Object length must be >= 0, was " + length);
    }
    Objects.requireNonNull(etag, "etag");
    Objects.requireNonNull(lastModified, "lastModified");
    Objects.requireNonNull(versionId, "versionId");
  }

  /** Metadata with only a length and an ETag. */
  public static ObjectMetadata of(long length, String etag) {
    return new ObjectMetadata(length, etag, Optional.empty(), Optional.empty());
  }
}
