package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.object.ObjectLocation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DiskCacheConfigurationTest {

  private static DiskCacheConfiguration read(Map<String, String> map) {
    return S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(map, "seekwell."))
        .diskCache();
  }

  @Test
  void offUnlessADirectoryIsSet() {
    DiskCacheConfiguration defaults = read(Map.of());
    assertEquals(DiskCacheConfiguration.OFF, defaults);
    assertFalse(defaults.isEnabled());
    assertEquals(10L << 30, defaults.maxSize());
    assertEquals(4, defaults.maxSlots());
    assertEquals(10L << 28, defaults.slotSize(), "a quarter of the bound per slot");
    assertFalse(defaults.scans());
  }

  @Test
  void everyKeyIsRead() {
    DiskCacheConfiguration read =
        read(
            Map.of(
                "seekwell.physicalio.disk.cache.dir", "/var/cache/seekwell",
                "seekwell.physicalio.disk.cache.max.size", "200GB",
                "seekwell.physicalio.disk.cache.max.slots", "3",
                "seekwell.physicalio.disk.cache.scans", "true",
                "seekwell.physicalio.disk.cache.immutable.prefixes",
                    "s3://lake/warehouse/, s3://logs/2026/"));
    assertEquals(
        new DiskCacheConfiguration(
            Optional.of(Path.of("/var/cache/seekwell")),
            200L << 30,
            3,
            List.of("s3://lake/warehouse/", "s3://logs/2026/"),
            true),
        read);
    assertTrue(read.declaresImmutable(ObjectLocation.of("lake", "warehouse/t/data/f.parquet")));
    assertFalse(read.declaresImmutable(ObjectLocation.of("lake", "scratch/f.parquet")));
  }

  @Test
  void aTooSmallBoundIsRefusedNamingTheKey() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> read(Map.of("seekwell.physicalio.disk.cache.max.size", "64KB")));
    assertTrue(
        refused.getMessage().contains("seekwell.physicalio.disk.cache.max.size"),
        refused.getMessage());
  }

  @Test
  void aShareUnderTheSmallestBoundPerSlotIsRefusedNamingBothKeys() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                read(
                    Map.of(
                        "seekwell.physicalio.disk.cache.max.size", "3MB",
                        "seekwell.physicalio.disk.cache.max.slots", "4")));
    assertTrue(
        refused.getMessage().contains("physicalio.disk.cache.max.size"), refused.getMessage());
    assertTrue(
        refused.getMessage().contains("physicalio.disk.cache.max.slots"), refused.getMessage());
    assertEquals(1L << 20, DiskCacheConfiguration.in(Path.of("/tmp"), 4L << 20, 4).slotSize());
  }

  @Test
  void noSlotIsRefusedNamingTheKey() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> read(Map.of("seekwell.physicalio.disk.cache.max.slots", "0")));
    assertTrue(
        refused.getMessage().contains("seekwell.physicalio.disk.cache.max.slots"),
        refused.getMessage());
  }

  @Test
  void aPrefixThatIsNotAnS3LocationIsRefusedNamingTheKey() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> read(Map.of("seekwell.physicalio.disk.cache.immutable.prefixes", "lake/data")));
    assertTrue(
        refused.getMessage().contains("seekwell.physicalio.disk.cache.immutable.prefixes"),
        refused.getMessage());
    assertTrue(refused.getMessage().contains("lake/data"), refused.getMessage());
  }

  @Test
  void aMisspelledKeyIsRefused() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> read(Map.of("seekwell.physicalio.disk.cache.directory", "/tmp/x")));
    assertTrue(
        refused.getMessage().contains("seekwell.physicalio.disk.cache.directory"),
        refused.getMessage());
  }
}
