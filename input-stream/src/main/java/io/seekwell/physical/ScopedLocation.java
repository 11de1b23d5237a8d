package io.seekwell.physical;

import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.RequestOptions;

/**
 * An object as seen by requests with one SSE-C key (or none): what cached metadata and bytes are
 * shared under. Two streams share cached state only if each could have fetched it with its own
 * requests, so a stream with no key or another key never sees what a GET with a key decrypted. The
 * key is represented by its MD5, never by the key itself.
 *
 * @param location the object
 * @param customerKeyMd5 the base64 MD5 of the SSE-C key the requests carry, or empty for none
 */
public record ScopedLocation(ObjectLocation location, String customerKeyMd5) {

  static ScopedLocation of(ObjectLocation location, RequestOptions options) {
    return new ScopedLocation(
        location, options.customerKey().map(key -> key.base64KeyMd5()).orElse(""));
  }

  @Override
  public String toString() {
    return customerKeyMd5.isEmpty()
        ? location.toString()
        : location + " (SSE-C key MD5 " + customerKeyMd5 + ")";
  }
}
