package io.seekwell.physical;

import io.seekwell.common.object.ObjectLocation;

/**
 * One version of one object, as seen with one SSE-C key: cached bytes are keyed by it, so bytes of
 * two versions, or fetched with two keys, are never mixed. An object opened knowing only its length
 * has a null ETag here: its {@link ObjectBlocks} learn the version from the first GET response.
 */
public record ObjectKey(ScopedLocation scope, String etag, long length) {

  /** The key of an object opened by length, whose version the first GET response pins. */
  static ObjectKey byLength(ScopedLocation scope, long length) {
    return new ObjectKey(scope, null, length);
  }

  public ObjectLocation location() {
    return scope.location();
  }

  boolean isPinned() {
    return etag != null;
  }
}
