package io.seekwell.physical;

import io.seekwell.common.object.ObjectLocation;

/**
 * One version of one object: its location and ETag. Cached bytes are keyed by it, so bytes of two
 * versions are never mixed. An object opened knowing only its length has a null ETag here: its
 * {@link ObjectBlocks} learn the version from the first GET response.
 */
record ObjectKey(ObjectLocation location, String etag, long length) {

  /** The key of an object opened by length, whose version the first GET response pins. */
  static ObjectKey byLength(ObjectLocation location, long length) {
    return new ObjectKey(location, null, length);
  }

  boolean isPinned() {
    return etag != null;
  }
}
