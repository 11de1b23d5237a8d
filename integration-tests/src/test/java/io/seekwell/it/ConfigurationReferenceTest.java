package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.ConfigurationReference;
import io.seekwell.testing.InMemoryObjectClient;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md against the code, with every module on the class path: it lists exactly the
 * keys the factory and its plug-ins read, and each default it gives as one value is the default the
 * code uses.
 */
class ConfigurationReferenceTest {

  private static S3SeekableInputStreamFactory factory(S3SeekableInputStreamConfiguration settings) {
    return new S3SeekableInputStreamFactory(new InMemoryObjectClient(new Metrics()), settings);
  }

  @Test
  void theReferenceListsExactlyTheKeysTheCodeReads() {
    ConnectorConfiguration empty = ConnectorConfiguration.empty();
    factory(S3SeekableInputStreamConfiguration.fromConfiguration(empty)).close();
    assertEquals(
        new TreeSet<>(empty.keysRead()), new TreeSet<>(ConfigurationReference.settings().keySet()));
  }

  @Test
  void everyDefaultTheReferenceGivesAsAValueIsTheCodesDefault() {
    S3SeekableInputStreamConfiguration defaults =
        S3SeekableInputStreamConfiguration.fromConfiguration(ConnectorConfiguration.empty());
    for (Map.Entry<String, Optional<String>> setting :
        ConfigurationReference.settings().entrySet()) {
      if (setting.getValue().isEmpty()) {
        continue;
      }
      String key = setting.getKey();
      S3SeekableInputStreamConfiguration read =
          S3SeekableInputStreamConfiguration.fromConfiguration(
              ConnectorConfiguration.of(Map.of(key, setting.getValue().get())));
      assertEquals(defaults.physicalIO(), read.physicalIO(), key);
      assertEquals(defaults.diskCache(), read.diskCache(), key);
      assertEquals(defaults.logicalIO(), read.logicalIO(), key);
      assertEquals(defaults.client(), read.client(), key);
      // A plug-in's key is read when a factory is made: the value must be one it accepts.
      factory(read).close();
    }
  }
}
