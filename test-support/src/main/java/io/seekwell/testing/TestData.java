package io.seekwell.testing;

import java.util.SplittableRandom;

/** Deterministic test content: the same seed always gives the same bytes. */
public final class TestData {

  private TestData() {}

  /** {@code length} pseudo-random bytes from {@code seed}. */
  public static byte[] randomBytes(long seed, int length) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }
}
