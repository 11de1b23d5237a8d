package io.seekwell.parquet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;

/**
 * A SHA-256 of a Parquet file's whole schema (every element: name, type, length, repetition,
 * children, converted and logical type, field id), so that files with the same schema share what
 * was learned about them and files with different schemas never collide in practice.
 */
final class SchemaFingerprint {

  private SchemaFingerprint() {}

  static String of(FileMetaData metadata) {
    MessageDigest digest = sha256();
    for (SchemaElement element : metadata.getSchema()) {
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
