package io.seekwell.bench.report;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The median and range of a measure over some iterations: the one way the benchmarks summarise
 * repeated measurements. The median of an even count is the mean of the middle two.
 *
 * @param median the middle value
 * @param min the smallest value
 * @param max the largest value
 */
public record Spread(double median, double min, double max) {

  /** The spread of {@code values}; all zero if there are none. */
  static Spread of(double... values) {
    if (values.length == 0) {
      return new Spread(0, 0, 0);
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    double median =
        sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return new Spread(median, sorted[0], sorted[sorted.length - 1]);
  }

  /** The spread of {@code measure} over {@code samples}. */
  public static <T> Spread of(List<T> samples, ToDoubleFunction<T> measure) {
    return of(samples.stream().mapToDouble(measure).toArray());
  }

  /** The median of {@code measure} over {@code samples}. */
  public static <T> double median(List<T> samples, ToDoubleFunction<T> measure) {
    return of(samples, measure).median();
  }

  /** {@code median (min–max)}, each with two decimals, as the report tables show times. */
  public String cell() {
    return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", median, min, max);
  }
}
