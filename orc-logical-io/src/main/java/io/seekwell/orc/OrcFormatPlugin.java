package io.seekwell.orc;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.airlift.compress.zstd.ZstdDecompressor;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.util.List;
import org.apache.orc.OrcProto;
import org.apache.orc.protobuf.CodedInputStream;

/**
 * The ORC format plug-in: at open of an ORC file, fetches its tail with one GET (one more if the
 * tail is longer than {@code logicalio.orc.tail.prefetch.size}), parsing it with ORC's own {@code
 * OrcProto}; then fetches each stripe's footer ahead of the reader and prefetches the columns that
 * readers of files with the same schema read before (see {@link OrcReadStrategy}). A small file is
 * fetched whole. Found by {@link java.util.ServiceLoader}; one per factory. Thread-safe; starts no
 * threads.
 */
public final class OrcFormatPlugin implements FormatPlugin {

  private volatile OrcSettings settings = OrcSettings.DEFAULT;
  private volatile ColumnHistory history = new ColumnHistory(OrcSettings.DEFAULT.historySize());
  private volatile Cache<String, Boolean> wholeStripes =
      wholeStripes(OrcSettings.DEFAULT.historySize());

  /**
   * Creates the plug-in; {@link java.util.ServiceLoader} calls this.
   *
   * @throws IllegalStateException if the libraries it reads ORC with are not on the class path: the
   *     factory then leaves the plug-in out, with a warning
   */
  public OrcFormatPlugin() {
    try {
      // Apache ORC's metadata classes with their relocated protobuf, and the codecs ORC uses.
      OrcProto.PostScript.getDefaultInstance();
      CodedInputStream.newInstance(new byte[0]);
      new ZstdDecompressor();
    } catch (LinkageError e) {
      throw new IllegalStateException(
          "The ORC plug-in reads ORC with org.apache.orc:orc-format (classifier shaded-protobuf,"
              + " 1.1 or later) and io.airlift:aircompressor, which ORC readers bring; one is"
              + " missing",
          e);
    }
  }

  @Override
  public String name() {
    return "orc";
  }

  @Override
  public List<String> defaultSuffixes() {
    return List.of(".orc");
  }

  @Override
  public void configure(ConnectorConfiguration configuration) {
    settings = OrcSettings.fromConfiguration(configuration);
    history = new ColumnHistory(settings.historySize());
    wholeStripes = wholeStripes(settings.historySize());
  }

  @Override
  public ReadStrategy newStrategy(Prefetcher prefetcher) {
    return new OrcReadStrategy(prefetcher, settings, history, wholeStripes);
  }

  /** Whether readers of a schema read its stripes' data whole, per schema fingerprint. */
  private static Cache<String, Boolean> wholeStripes(long maxSchemas) {
    return Caffeine.newBuilder().maximumSize(maxSchemas).executor(Runnable::run).build();
  }
}
