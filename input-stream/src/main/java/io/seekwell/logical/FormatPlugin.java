package io.seekwell.logical;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import java.util.List;

/**
 * Knows what to read ahead for one file format. Found with {@link java.util.ServiceLoader}, so a
 * format module plugs in by being on the class path; one instance serves a whole factory (and may
 * keep what it learns across streams). Implementations must be thread-safe.
 */
public interface FormatPlugin extends AutoCloseable {

  /**
   * A short lower-case name, such as {@code parquet}; settings live under {@code logicalio.NAME.}.
   */
  String name();

  /**
   * Keys ending with one of these (in any case) are of this format, unless configured otherwise.
   */
  List<String> defaultSuffixes();

  /**
   * Reads this plug-in's settings and takes the factory's {@code metrics} (to count in, as {@link
   * FooterMetrics} does); called once, before any stream.
   */
  default void configure(ConnectorConfiguration configuration, Metrics metrics) {}

  /** The strategy for one new stream over an object of this format. */
  ReadStrategy newStrategy(Prefetcher prefetcher);

  /** Releases what the plug-in holds; called when the factory closes. */
  @Override
  default void close() {}
}
