package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.ConfigurationReference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/configuration.md lists the settings of the stream factory as they are declared. */
class SettingsReferenceTest {

  @Test
  void physicalIo() {
    assertEquals(
        List.of(),
        ConfigurationReference.mismatches(
            PhysicalIOConfiguration.SETTINGS, DiskCacheConfiguration.PREFIX));
  }

  @Test
  void diskTier() {
    assertEquals(List.of(), ConfigurationReference.mismatches(DiskCacheConfiguration.SETTINGS));
  }

  @Test
  void logicalIo() {
    // The announcement keys are declared below; the plug-ins declare theirs.
    assertEquals(
        List.of(),
        ConfigurationReference.mismatches(
            LogicalIOConfiguration.SETTINGS,
            AnnouncementSettings.SETTINGS.prefix(),
            "logicalio.parquet.",
            "logicalio.orc."));
  }

  @Test
  void announcements() {
    assertEquals(List.of(), ConfigurationReference.mismatches(AnnouncementSettings.SETTINGS));
  }
}
