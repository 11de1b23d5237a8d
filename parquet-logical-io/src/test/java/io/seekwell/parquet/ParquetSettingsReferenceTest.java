package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.testing.ConfigurationReference;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each default docs/configuration.md gives as a value for this plug-in is the code's default. */
class ParquetSettingsReferenceTest {

  private static final String PREFIX = "logicalio.parquet.";

  @Test
  void everyDefaultTheReferenceGivesAsAValueIsTheCodesDefault() {
    int checked = 0;
    for (Map.Entry<String, Optional<String>> setting :
        ConfigurationReference.settings().entrySet()) {
      String key = setting.getKey();
      if (!key.startsWith(PREFIX)
          || key.equals(PREFIX + "suffixes")
          || setting.getValue().isEmpty()) {
        continue; // the suffixes are the plug-in selector's, checked with the core settings
      }
      ConnectorConfiguration one =
          ConnectorConfiguration.of(Map.of(key, setting.getValue().get())).narrow(PREFIX);
      assertEquals(ParquetSettings.DEFAULT, ParquetSettings.fromConfiguration(one), key);
      checked++;
    }
    assertEquals(6, checked, "the Parquet defaults the reference gives as values");
  }
}
