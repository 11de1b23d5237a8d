package io.seekwell.orc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.util.List;

/**
 * The ORC format plug-in: at open of an ORC file, fetches its tail with one GET (one more if the
 * tail is longer than {@code logicalio.orc.tail.prefetch.size}), parsing it with a copy of ORC's
 * own {@code OrcProto} that the plug-in's jar holds relocated (so any ORC build of the application
 * stays as it is); then fetches each stripe's footer ahead of the reader and prefetches the columns
 * that readers of files with the same schema read before (see {@link OrcReadStrategy}). A small
 * file is fetched whole. Found by {@link java.util.ServiceLoader}; one per factory. Thread-safe;
 * starts no threads.
 */
public final class OrcFormatPlugin implements FormatPlugin {

  private volatile OrcSettings settings = OrcSettings.DEFAULT;
  private volatile ColumnHistory history = new ColumnHistory(OrcSettings.DEFAULT.historySize());
  private volatile Cache<String, Boolean> wholeStripes =
      wholeStripes(OrcSettings.DEFAULT.historySize());
  private volatile FooterMetrics footers = new FooterMetrics(new Metrics());

  /** Creates the plug-in; {@link java.util.ServiceLoader} calls this. */
  public OrcFormatPlugin() {}

  @Override
  public String name() {
    return "orc";
  }

  @Override
  public List<String> defaultSuffixes() {
    return List.of(".orc");
  }

  @Override
  public void configure(ConnectorConfiguration configuration, Metrics metrics) {
    settings = OrcSettings.fromConfiguration(configuration);
    history = new ColumnHistory(settings.historySize());
    wholeStripes = wholeStripes(settings.historySize());
    footers = new FooterMetrics(metrics);
  }

  @Override
  public ReadStrategy newStrategy(Prefetcher prefetcher) {
    return new OrcReadStrategy(prefetcher, settings, history, wholeStripes, footers);
  }

  /** Whether readers of a schema read its stripes' data whole, per schema fingerprint. */
  private static Cache<String, Boolean> wholeStripes(long maxSchemas) {
    return Caffeine.newBuilder().maximumSize(maxSchemas).executor(Runnable::run).build();
  }
}
