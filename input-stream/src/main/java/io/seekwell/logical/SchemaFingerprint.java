package io.seekwell.logical;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A SHA-256 of a file's whole schema, so that files with the same schema share what was learned
 * about them ({@link ColumnHistory}) and files with different schemas never collide in practice.
 */
public final class SchemaFingerprint {

  private SchemaFingerprint() {}

  /**
   * The fingerprint of a schema given as its elements in order, each described in full by its
   * {@code toString()} (a Parquet {@code SchemaElement}, an ORC {@code OrcProto.Type}).
   */
  public static String of(Iterable<?> elements) {
    MessageDigest digest = sha256();
    for (Object element : elements) {
      digest.update(element.toString().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform provides SHA-256", e);
    }
  }
}
