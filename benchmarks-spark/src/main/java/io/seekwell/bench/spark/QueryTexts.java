package io.seekwell.bench.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;

/**
 * The texts of the 22 TPC-H queries (resources {@code /tpch/qNN.sql}) at one scale factor: the one
 * parameter the specification scales, Q11's {@code FRACTION} (0.0001 / SF), is put in for it.
 * Immutable.
 */
final class QueryTexts {

  private static final String FRACTION = "${FRACTION}";

  private final String fraction;

  /** The texts for scale factor {@code scale}. */
  QueryTexts(double scale) {
    if (!(scale > 0)) {
      throw new IllegalArgumentException("The scale factor must be positive: " + scale);
    }
    this.fraction =
        new BigDecimal("0.0001")
            .divide(BigDecimal.valueOf(scale), MathContext.DECIMAL64)
            .stripTrailingZeros()
            .toPlainString();
  }

  /** The text of query {@code number}, 1 to 22. */
  String text(int number) {
    String resource = String.format("/tpch/q%02d.sql", number);
    try (InputStream in = QueryTexts.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("No TPC-H query " + number + " (" + resource + ")");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace(FRACTION, fraction);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
