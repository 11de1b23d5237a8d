package io.seekwell.physical.disk;

/**
 * Why the disk tier cannot use its directory in this scope: all its slots are taken, it cannot be
 * created, locked, written or listed, or its file system has too little space free. The factory
 * then reads without the tier; the message says why, in words that the warning naming the directory
 * ends with.
 */
final class DiskUnavailableException extends Exception {

  private static final long serialVersionUID = 1L;

  DiskUnavailableException(String reason) {
    super(reason);
  }

  DiskUnavailableException(String reason, Throwable cause) {
    super(reason, cause);
  }
}
