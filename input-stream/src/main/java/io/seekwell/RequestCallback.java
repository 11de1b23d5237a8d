package io.seekwell;

import io.seekwell.common.ByteRange;

/**
 * Told about every request a stream sends to the store, for auditing or statistics. Called on
 * whatever thread sends the request; implementations must be fast and thread-safe, and must not
 * throw.
 */
public interface RequestCallback {

  /** A GET of {@code range} of {@code uri} is about to be sent. */
  default void onGetRequest(S3URI uri, ByteRange range) {}

  /** A HEAD of {@code uri} is about to be sent. */
  default void onHeadRequest(S3URI uri) {}
}
