package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A format plug-in that cannot be made (its format's library is missing from the class path) is
 * left out, and the plug-ins after it are still found. Both are listed in this module's test
 * resources, the unusable one first.
 */
class UnusableFormatPluginTest {

  /** While set, {@link Unusable} cannot be made; other tests' factories find it usable. */
  private static volatile boolean missingLibrary;

  /** Fails, while {@link #missingLibrary} is set, as a plug-in whose library is missing does. */
  public static final class Unusable implements FormatPlugin {
    public Unusable() {
      if (missingLibrary) {
        throw new NoClassDefFoundError("org/example/format/Footer");
      }
    }

    @Override
    public String name() {
      return "unusable";
    }

    @Override
    public List<String> defaultSuffixes() {
      return List.of(".unusable");
    }

    @Override
    public ReadStrategy newStrategy(Prefetcher prefetcher) {
      return ReadStrategy.NONE;
    }
  }

  /** A plug-in that can be made, listed after the unusable one. */
  public static final class Probe implements FormatPlugin {
    public Probe() {}

    @Override
    public String name() {
      return "probe";
    }

    @Override
    public List<String> defaultSuffixes() {
      return List.of(".probe");
    }

    @Override
    public ReadStrategy newStrategy(Prefetcher prefetcher) {
      return ReadStrategy.NONE;
    }
  }

  @Test
  void anUnusablePluginIsLeftOutAndTheNextIsFound() {
    missingLibrary = true;
    try (ReadStrategySelector selector =
        new ReadStrategySelector(S3SeekableInputStreamConfiguration.DEFAULT, new Metrics())) {
      assertEquals(List.of("probe"), selector.formatNames());
    } finally {
      missingLibrary = false;
    }
    try (ReadStrategySelector selector =
        new ReadStrategySelector(S3SeekableInputStreamConfiguration.DEFAULT, new Metrics())) {
      assertEquals(List.of("unusable", "probe"), selector.formatNames());
    }
  }
}
