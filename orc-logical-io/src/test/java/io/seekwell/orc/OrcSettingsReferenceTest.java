package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.testing.ConfigurationReference;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each default docs/configuration.md gives as a value for this plug-in is the code's default. */
class OrcSettingsReferenceTest {

  private static final String PREFIX = "logicalio.orc.";

  @Test
  void everyDefaultTheReferenceGivesAsAValueIsTheCodesDefault() {
    // The suffixes are the plug-in selector's, checked with the core settings.
    Map<String, String> defaults =
        ConfigurationReference.literalDefaults(PREFIX, PREFIX + "suffixes");
    assertEquals(2, defaults.size(), "the ORC defaults the reference gives as values");
    defaults.forEach(
        (key, value) ->
            assertEquals(
                OrcSettings.DEFAULT,
                OrcSettings.fromConfiguration(
                    ConnectorConfiguration.of(Map.of(key, value)).narrow(PREFIX)),
                key));
  }

  @Test
  void theReferenceListsTheSettingsAsDeclared() {
    // The suffixes are the plug-in selector's.
    assertEquals(
        List.of(), ConfigurationReference.mismatches(OrcSettings.SETTINGS, PREFIX + "suffixes"));
  }
}
