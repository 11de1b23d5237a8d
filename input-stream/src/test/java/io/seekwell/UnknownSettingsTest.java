package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.InMemoryObjectClient;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A key that no setting reads, a misspelling most often, is refused rather than ignored. */
class UnknownSettingsTest {

  private static ConnectorConfiguration settings(String key, String value) {
    return ConnectorConfiguration.of(Map.of(key, value), "seekwell.");
  }

  @Test
  void aMisspelledKeyIsRefusedWhenTheSettingsAreRead() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                S3SeekableInputStreamConfiguration.fromConfiguration(
                    settings("seekwell.client.retry.max.atempts", "3")));
    assertEquals(
        "Unknown configuration key 'seekwell.client.retry.max.atempts': did you mean"
            + " 'seekwell.client.retry.max.attempts'?",
        error.getMessage());
  }

  @Test
  void aKeyOfNoFormatPlugInIsRefusedWhenAFactoryIsMade() {
    S3SeekableInputStreamConfiguration configuration =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            settings("seekwell.logicalio.orcc.tail.size", "1MB"));
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> new S3SeekableInputStreamFactory(store, configuration));
    assertEquals(
        "Unknown configuration key 'seekwell.logicalio.orcc.tail.size'", error.getMessage());
  }

  @Test
  void everyDocumentedKindOfKeyIsAccepted() {
    S3SeekableInputStreamConfiguration configuration =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of(
                    "seekwell.physicalio.max.memory.limit", "64MB",
                    "seekwell.logicalio.small.object.prefetch", "false",
                    "seekwell.client.retry.max.attempts", "4"),
                "seekwell."));
    new S3SeekableInputStreamFactory(new InMemoryObjectClient(new Metrics()), configuration)
        .close();
    assertEquals(64L << 20, configuration.physicalIO().maxMemoryLimit());
  }
}
