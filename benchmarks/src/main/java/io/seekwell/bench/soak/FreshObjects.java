package io.seekwell.bench.soak;

import java.util.SplittableRandom;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Objects the soak benchmark writes one at a time, reads once and deletes, as a long-lived process
 * meets a new file every second and never again: whatever a read path keeps per object it has read
 * must not grow with their number. Object {@code n} holds bytes only {@code n} decides. Not
 * thread-safe: one thread writes, reads and deletes them.
 */
final class FreshObjects {

  private final S3Client admin;
  private final String bucket;
  private final String prefix;
  private final int length;

  FreshObjects(S3Client admin, String bucket, String prefix, int length) {
    this.admin = admin;
    this.bucket = bucket;
    this.prefix = prefix;
    this.length = length;
  }

  int length() {
    return length;
  }

  /** Writes object {@code object}. */
  void write(long object) {
    admin.putObject(
        request -> request.bucket(bucket).key(key(object)), RequestBody.fromBytes(content(object)));
  }

  String key(long object) {
    return prefix + object;
  }

  /** What object {@code object} holds. */
  byte[] content(long object) {
    byte[] content = new byte[length];
    new SplittableRandom(object * 0x9E3779B97F4A7C15L).nextBytes(content);
    return content;
  }

  /** Deletes {@code object}, read and never to be read again (or never written). */
  void delete(long object) {
    admin.deleteObject(request -> request.bucket(bucket).key(key(object)));
  }
}
