package io.seekwell.bench.spark;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.sql.Row;

/**
 * A query's answer in a form every read path can be compared by: one line per row (values separated
 * by {@code |}, decimals in plain notation, {@code NULL} for null), the lines sorted, and their
 * SHA-256. Sorted, so that rows whose order the query leaves open compare equal. Immutable.
 */
record Answer(List<String> lines, String digest) {

  /** The answer of {@code rows}. */
  static Answer of(List<Row> rows) {
    List<String> lines = new ArrayList<>(rows.size());
    for (Row row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length(); i++) {
        if (i > 0) {
          line.append('|');
        }
        line.append(text(row.get(i)));
      }
      lines.add(line.toString());
    }
    lines.sort(null);
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String line : lines) {
        sha.update(line.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) '\n');
      }
      return new Answer(List.copyOf(lines), HexFormat.of().formatHex(sha.digest(), 0, 8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java has SHA-256", e);
    }
  }

  private static String text(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return value.toString();
  }
}
