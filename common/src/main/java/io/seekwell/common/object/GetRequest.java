package io.seekwell.common.object;

import io.seekwell.common.ByteRange;
import java.util.Objects;
import java.util.Optional;

/**
 * A request for a closed range of an object's bytes. Immutable and thread-safe.
 *
 * <p>The range is always closed: an open-ended GET, which would make the store stream up to the
 * whole object, cannot be expressed.
 *
 * @param location the object
 * @param range the bytes to fetch, both ends inclusive
 * @param etag the version the caller expects; sent as {@code If-Match} so that a changed object
 *     fails with {@link ObjectChangedException} instead of returning mixed bytes
 * @param options SSE-C key, user-agent suffix, audit string
 */
public record GetRequest(
    ObjectLocation location, ByteRange range, Optional<String> etag, RequestOptions options) {

  /** Creates a request; every argument must be non-null. */
  public GetRequest {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(etag, "etag");
    Objects.requireNonNull(options, "options");
  }

  /** A GET of {@code range} of {@code location} with no ETag and no options. */
  public static GetRequest of(ObjectLocation location, ByteRange range) {
    return new GetRequest(location, range, Optional.empty(), RequestOptions.none());
  }

  /** This request for another range of the same object, with the same ETag and options. */
  public GetRequest withRange(ByteRange newRange) {
    return new GetRequest(location, newRange, etag, options);
  }

  /** This request with {@code If-Match: newEtag}. */
  public GetRequest withEtag(String newEtag) {
    return new GetRequest(location, range, Optional.of(newEtag), options);
  }

  /** This request with other options. */
  public GetRequest withOptions(RequestOptions newOptions) {
    return new GetRequest(location, range, etag, newOptions);
  }

  /** The object and range, as used in error messages: {@code s3://bucket/key [0-99]}. */
  public String describe() {
    return location + " " + range;
  }
}
