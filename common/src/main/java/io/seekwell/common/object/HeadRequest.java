package io.seekwell.common.object;

import java.util.Objects;

/** A request for an object's metadata. Immutable and thread-safe. */
public record HeadRequest(ObjectLocation location, RequestOptions options) {

  /** Creates a request; both arguments must be non-null. */
  public HeadRequest {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(options, "options");
  }

  /** A HEAD of {@code location} with no options. */
  public static HeadRequest of(ObjectLocation location) {
    return new HeadRequest(location, RequestOptions.none());
  }
}
