package io.seekwell.bench.soak;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Objects the soak benchmark overwrites now and then, with the versions a stream may still be
 * reading: a read is right if it equals one of them at its range, and a stream's reads all come
 * from the same one. Thread-safe: one thread overwrites, any number check.
 */
final class VersionedObjects {

  /**
   * Versions of each object kept to check against: more than are written while a factory may still
   * serve an earlier one (`physicalio.metadata.cache.ttl`, 5 minutes, at one overwrite of each of 8
   * objects every 40 seconds).
   */
  static final int KEPT = 10;

  private final S3Client admin;
  private final String bucket;
  private final int length;
  private final List<String> keys;
  private final List<Deque<byte[]>> versions;
  private final AtomicLong overwrites = new AtomicLong();

  /**
   * {@code count} objects of {@code length} bytes under {@code prefix}, each written {@link #KEPT}
   * times now, so that the versions kept take as much memory from the start as they ever will.
   */
  VersionedObjects(S3Client admin, String bucket, String prefix, int count, int length) {
    this.admin = admin;
    this.bucket = bucket;
    this.length = length;
    this.keys = IntStream.range(0, count).mapToObj(i -> prefix + i).toList();
    this.versions =
        IntStream.range(0, count).mapToObj(i -> (Deque<byte[]>) new ArrayDeque<byte[]>()).toList();
    for (int version = 0; version < KEPT; version++) {
      for (int i = 0; i < count; i++) {
        overwrite(i);
      }
    }
  }

  int count() {
    return keys.size();
  }

  int length() {
    return length;
  }

  String key(int object) {
    return keys.get(object);
  }

  /** Writes a new version of {@code object}. */
  void overwrite(int object) {
    byte[] content = new byte[length];
    new SplittableRandom(31L * overwrites.incrementAndGet() + object).nextBytes(content);
    // Kept before it is written: a stream may read it as soon as the PUT is done.
    Deque<byte[]> kept = versions.get(object);
    synchronized (kept) {
      kept.addFirst(content);
      if (kept.size() > KEPT) {
        kept.removeLast();
      }
    }
    admin.putObject(
        request -> request.bucket(bucket).key(keys.get(object)), RequestBody.fromBytes(content));
  }

  /**
   * The version of {@code object} whose bytes at {@code position} are {@code bytes}, among {@code
   * candidate} (if given) or else the kept ones; none if no such version.
   */
  Optional<byte[]> versionOf(int object, long position, byte[] bytes, Optional<byte[]> candidate) {
    if (candidate.isPresent()) {
      return matches(candidate.get(), position, bytes) ? candidate : Optional.empty();
    }
    Deque<byte[]> kept = versions.get(object);
    synchronized (kept) {
      return kept.stream().filter(version -> matches(version, position, bytes)).findFirst();
    }
  }

  private static boolean matches(byte[] version, long position, byte[] bytes) {
    int from = (int) position;
    return Arrays.equals(version, from, from + bytes.length, bytes, 0, bytes.length);
  }
}
