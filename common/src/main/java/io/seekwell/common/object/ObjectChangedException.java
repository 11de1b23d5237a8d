package io.seekwell.common.object;

import java.io.IOException;

/**
 * The object no longer has the ETag a request expected: it was overwritten or deleted and written
 * again between two reads (HTTP 412). Bytes of the two versions must not be mixed, so the read
 * fails; a new stream sees the new version.
 */
public class ObjectChangedException extends IOException {

  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message that names the object and the expected ETag. */
  public ObjectChangedException(String message, Throwable cause) {
    super(message, cause);
  }
}
