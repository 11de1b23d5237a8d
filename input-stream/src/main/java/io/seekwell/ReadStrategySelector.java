package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.logical.SequentialReadahead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses each stream's {@link ReadStrategy}: from the caller's {@link InputPolicy}, else from the
 * object's key (configurable suffixes, matched in any case), with format plug-ins found through
 * {@link ServiceLoader}. Thread-safe; one per factory, and it owns the plug-ins.
 */
final class ReadStrategySelector implements AutoCloseable {

  /** A plug-in and the key pattern that selects it. */
  private record Format(FormatPlugin plugin, Pattern keys) {}

  private static final Logger LOG = LoggerFactory.getLogger(ReadStrategySelector.class);
  private static final int MAX_PLUGIN_FAILURES = 16;

  private final LogicalIOConfiguration configuration;
  private final long maxWindow;
  private final long smallObjectLength;
  private final Pattern sequentialKeys;
  private final List<Format> formats = new ArrayList<>();

  /** Finds and configures the format plug-ins, which count in {@code metrics}. */
  ReadStrategySelector(S3SeekableInputStreamConfiguration settings, Metrics metrics) {
    this.configuration = settings.logicalIO();
    // Read-ahead never evicts unread bytes for more, and prefetches leave the readers' reserve (at
    // most an eighth of the bound) free: a window of seven eighths of the bound fills what is left.
    this.maxWindow =
        Math.max(
            configuration.sequentialInitialSize(),
            Math.min(
                configuration.sequentialMaxSize(), settings.physicalIO().maxMemoryLimit() / 8 * 7));
    this.smallObjectLength = smallObjectLength(settings);
    this.sequentialKeys = suffixPattern(configuration.sequentialSuffixes());
    ConnectorConfiguration raw = settings.rawConfiguration();
    for (FormatPlugin plugin : loadPlugins()) {
      ConnectorConfiguration own = raw.narrow(LogicalIOConfiguration.PREFIX + plugin.name() + ".");
      plugin.configure(own, metrics);
      List<String> suffixes =
          own.getString("suffixes")
              .map(text -> List.of(text.split(",")))
              .orElse(plugin.defaultSuffixes());
      formats.add(new Format(plugin, suffixPattern(suffixes)));
    }
  }

  /**
   * The format plug-ins on the class path that can be made: one that cannot (its format's library
   * is missing, or of another version) is left out with a warning, and files of its format are read
   * as any other file.
   */
  private static List<FormatPlugin> loadPlugins() {
    List<FormatPlugin> plugins = new ArrayList<>();
    Iterator<FormatPlugin> found = ServiceLoader.load(FormatPlugin.class).iterator();
    // The loader moves past a provider that failed; the bound stops a class path that keeps
    // failing.
    for (int failures = 0; failures < MAX_PLUGIN_FAILURES; ) {
      try {
        if (!found.hasNext()) {
          break;
        }
        plugins.add(found.next());
      } catch (ServiceConfigurationError | LinkageError e) {
        failures++;
        LOG.warn("A format plug-in is left out: {}", causes(e));
      }
    }
    return plugins;
  }

  /** The error's message, then each cause. */
  private static String causes(Throwable error) {
    StringBuilder message = new StringBuilder(String.valueOf(error.getMessage()));
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      message.append(": ").append(cause);
    }
    return message.toString();
  }

  /** The names of the format plug-ins found. */
  List<String> formatNames() {
    return formats.stream().map(format -> format.plugin().name()).toList();
  }

  /** The strategy for a new stream over {@code uri}, read as {@code policy} says. */
  ReadStrategy select(S3URI uri, InputPolicy policy, Prefetcher prefetcher) {
    switch (policy) {
      case RANDOM:
        return ReadStrategy.NONE;
      case SEQUENTIAL:
      case WHOLE_FILE:
        return sequential(prefetcher, true);
      case COLUMNAR:
        return formatFor(uri)
            .map(format -> format.plugin().newStrategy(prefetcher))
            .orElse(ReadStrategy.NONE);
      default:
        return formatFor(uri)
            .map(format -> format.plugin().newStrategy(prefetcher))
            .orElseGet(() -> sequential(prefetcher, sequentialKeys.matcher(uri.key()).find()));
    }
  }

  /**
   * The longest object fetched whole: {@code logicalio.small.object.size.threshold}, but never one
   * that is scanned ({@link PhysicalIOConfiguration#scanLength()}), whose bytes would not stay in
   * memory for a reader to come back to, so that only what readers read should be fetched.
   */
  static long smallObjectLength(S3SeekableInputStreamConfiguration settings) {
    return Math.min(
        settings.logicalIO().smallObjectThreshold(), settings.physicalIO().scanLength());
  }

  /** Starts the GET of a whole small object {@code uri} at open, if settings and policy allow. */
  void prefetchSmallObject(S3URI uri, InputPolicy policy, Prefetcher prefetcher)
      throws IOException {
    long length = prefetcher.objectLength();
    if (!configuration.smallObjectPrefetch() || policy == InputPolicy.RANDOM || length == 0) {
      return;
    }
    if (length <= smallObjectLength) {
      prefetcher.prefetch(ByteRange.of(0, length - 1));
    } else if (length <= configuration.smallObjectThreshold()) {
      LOG.debug(
          "{}: not fetched whole at open: its {} bytes are more than a quarter of the memory"
              + " limit, so they would not stay in memory",
          uri,
          length);
    }
  }

  private ReadStrategy sequential(Prefetcher prefetcher, boolean startAtFirstRead) {
    if (!configuration.sequentialPrefetch()) {
      return ReadStrategy.NONE;
    }
    return new SequentialReadahead(
        prefetcher, configuration.sequentialInitialSize(), maxWindow, startAtFirstRead);
  }

  private java.util.Optional<Format> formatFor(S3URI uri) {
    return formats.stream().filter(f -> f.keys().matcher(uri.key()).find()).findFirst();
  }

  private static Pattern suffixPattern(List<String> suffixes) {
    List<String> cleaned = suffixes.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    if (cleaned.isEmpty()) {
      return Pattern.compile("(?!)");
    }
    return Pattern.compile(
        cleaned.stream().map(Pattern::quote).collect(Collectors.joining("|", "(?:", ")$")),
        Pattern.CASE_INSENSITIVE);
  }

  @Override
  public void close() {
    for (Format format : formats) {
      format.plugin().close();
    }
  }
}
