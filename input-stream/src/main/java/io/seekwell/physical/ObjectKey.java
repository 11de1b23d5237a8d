package io.seekwell.physical;

import io.seekwell.common.object.ObjectLocation;

/**
 * One version of one object: its location and ETag. Cached bytes are keyed by it, so bytes of two
 * versions are never mixed.
 */
record ObjectKey(ObjectLocation location, String etag) {}
