package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.testing.ConfigurationReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each default docs/configuration.md gives as a value for this plug-in is the code's default. */
class ParquetSettingsReferenceTest {

  private static final String PREFIX = "logicalio.parquet.";

  @Test
  void everyDefaultTheReferenceGivesAsAValueIsTheCodesDefault() {
    // The suffixes are the plug-in selector's, checked with the core settings.
    Map<String, String> defaults =
        ConfigurationReference.literalDefaults(PREFIX, PREFIX + "suffixes");
    assertEquals(6, defaults.size(), "the Parquet defaults the reference gives as values");
    defaults.forEach(
        (key, value) ->
            assertEquals(
                ParquetSettings.DEFAULT,
                ParquetSettings.fromConfiguration(
                    ConnectorConfiguration.of(Map.of(key, value)).narrow(PREFIX)),
                key));
  }

  @Test
  void theReferenceListsTheSettingsAsDeclared() {
    // The suffixes are the plug-in selector's.
    assertEquals(
        List.of(),
        ConfigurationReference.mismatches(ParquetSettings.SETTINGS, PREFIX + "suffixes"));
  }
}
