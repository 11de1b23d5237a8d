package io.seekwell.parquet;

import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Parquet format plug-in: at open of a Parquet file, fetches its tail with one GET (one more if
 * the footer is longer), parses the footer on its own threads, and prefetches the columns that
 * readers of files with the same schema read before. A small file is fetched whole, or only its
 * footer when readers of the files beside them read only footers. Found by {@link
 * java.util.ServiceLoader}; one per factory. Thread-safe; its two parser threads are daemons,
 * stopped by {@link #close()}.
 */
public final class ParquetFormatPlugin implements FormatPlugin {

  private static final AtomicInteger PLUGIN_IDS = new AtomicInteger();
  private static final int PARSER_THREADS = 2;

  private final ExecutorService parser =
      DaemonPools.bounded("seekwell-parquet-" + PLUGIN_IDS.incrementAndGet() + "-", PARSER_THREADS);
  private volatile ParquetSettings settings = ParquetSettings.DEFAULT;
  private volatile ColumnHistory history = new ColumnHistory(ParquetSettings.DEFAULT.historySize());
  private volatile FooterOnlyHistory footerOnly =
      new FooterOnlyHistory(ParquetSettings.DEFAULT.historySize());
  private volatile TailHistory tails = new TailHistory(ParquetSettings.DEFAULT.historySize());
  private volatile FooterMetrics footers = new FooterMetrics(new Metrics());

  /** Creates the plug-in; {@link java.util.ServiceLoader} calls this. */
  public ParquetFormatPlugin() {}

  @Override
  public String name() {
    return "parquet";
  }

  @Override
  public List<String> defaultSuffixes() {
    return List.of(".parquet", ".par");
  }

  @Override
  public void configure(ConnectorConfiguration configuration, Metrics metrics) {
    settings = ParquetSettings.fromConfiguration(configuration);
    history = new ColumnHistory(settings.historySize());
    footerOnly = new FooterOnlyHistory(settings.historySize());
    tails = new TailHistory(settings.historySize());
    footers = new FooterMetrics(metrics);
  }

  @Override
  public ReadStrategy newStrategy(Prefetcher prefetcher) {
    return new ParquetReadStrategy(
        prefetcher, settings, parser, history, footerOnly, tails, footers);
  }

  @Override
  public void close() {
    DaemonPools.shutdown(parser);
  }
}
