package io.seekwell.logical;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What became of the footers a format plug-in fetched to decide what to read ahead (a Parquet
 * footer, an ORC tail or stripe footer): each one parsed counts in {@link
 * Metric#FORMAT_FOOTERS_PARSED}; each one that could not be fetched or parsed counts in {@link
 * Metric#FORMAT_FOOTERS_UNPARSED} and is logged at DEBUG with the object and the reason, and the
 * stream reads on with less prefetched. Thread-safe: parsers call it from their own threads.
 */
public final class FooterMetrics {

  private static final Logger LOG = LoggerFactory.getLogger(FooterMetrics.class);

  private final Metrics metrics;

  /** Counts into {@code metrics}, the factory's. */
  public FooterMetrics(Metrics metrics) {
    this.metrics = metrics;
  }

  /** A footer was parsed. */
  public void parsed() {
    metrics.increment(Metric.FORMAT_FOOTERS_PARSED);
  }

  /**
   * {@code what} ("the footer", "the footer of stripe 3") of {@code objectName} could not be
   * fetched or parsed, for {@code reason} (unwrapped if a future wrapped it).
   */
  public void unparsed(String objectName, String what, Throwable reason) {
    metrics.increment(Metric.FORMAT_FOOTERS_UNPARSED);
    LOG.debug(
        "{} of {} is not used to read ahead: {}",
        what,
        objectName,
        Futures.unwrap(reason).toString());
  }
}
