package io.seekwell.common.object;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Objects;

/**
 * A customer-provided encryption key for SSE-C: a 256-bit AES key sent with every HEAD and GET of
 * an object that was written with it. Immutable and thread-safe. {@link #toString()} never reveals
 * the key.
 */
public final class CustomerKey {

  /** The only algorithm S3 accepts for SSE-C. */
  public static final String ALGORITHM = "AES256";

  private static final int KEY_BYTES = 32;

  private final String base64Key;
  private final String base64KeyMd5;

  private CustomerKey(String base64Key, String base64KeyMd5) {
    this.base64Key = base64Key;
    this.base64KeyMd5 = base64KeyMd5;
  }

  /**
   * A key from its 32 raw bytes.
   *
   * @throws IllegalArgumentException if the key is not 32 bytes long
   */
  public static CustomerKey of(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException(
          "An SSE-C key must be " + KEY_BYTES + " bytes (AES-256), was " + key.length);
    }
    Base64.Encoder encoder = Base64.getEncoder();
    return new CustomerKey(encoder.encodeToString(key), encoder.encodeToString(md5(key)));
  }

  /**
   * A key from its base64 text, as S3 clients usually take it.
   *
   * @throws IllegalArgumentException if the text is not base64 of 32 bytes
   */
  public static CustomerKey fromBase64(String base64Key) {
    Objects.requireNonNull(base64Key, "base64Key");
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64Key.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("An SSE-C key must be base64 text", e);
    }
    return of(key);
  }

  /** The key as base64, the value of {@code x-amz-server-side-encryption-customer-key}. */
  public String base64Key() {
    return base64Key;
  }

  /** The base64 MD5 of the key, the value of {@code ...-customer-key-MD5}. */
  public String base64KeyMd5() {
    return base64KeyMd5;
  }

  private static byte[] md5(byte[] key) {
    try {
      return MessageDigest.getInstance("MD5").digest(key);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform provides MD5", e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CustomerKey that && base64Key.equals(that.base64Key);
  }

  @Override
  public int hashCode() {
    return base64KeyMd5.hashCode();
  }

  @Override
  public String toString() {
    return "CustomerKey{md5=" + base64KeyMd5 + "}";
  }
}
