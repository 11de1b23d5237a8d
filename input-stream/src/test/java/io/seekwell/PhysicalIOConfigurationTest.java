package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.config.ConnectorConfiguration;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PhysicalIOConfigurationTest {

  @Test
  void defaults() {
    PhysicalIOConfiguration defaults =
        PhysicalIOConfiguration.fromConfiguration(ConnectorConfiguration.empty());
    assertEquals(PhysicalIOConfiguration.DEFAULT, defaults);
    assertEquals(
        Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4), defaults.maxMemoryLimit());
    assertEquals(64 * 1024, defaults.readAheadBytes());
    assertEquals(8 * 1024 * 1024, defaults.targetRequestSize());
    assertEquals(32 * 1024 * 1024, defaults.maxRequestSize());
    assertEquals(1.25, defaults.requestToleranceRatio());
    assertEquals(10_000, defaults.metadataCacheSize());
    assertEquals(Duration.ofMinutes(5), defaults.metadataCacheTtl());
    assertEquals(Duration.ofMinutes(2), defaults.readTimeout());
    assertEquals(64, defaults.fetchThreads());
    assertEquals(1024 * 1024, defaults.coalesceTolerance());
  }

  @Test
  void theJvmsBudgetIsItsSystemPropertyAndABadValueNamesIt() {
    String key = PhysicalIOConfiguration.JVM_MEMORY_LIMIT.key();
    String before = System.getProperty(key);
    try {
      System.clearProperty(key);
      assertEquals(
          Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4),
          PhysicalIOConfiguration.jvmBudget().bytes());
      System.setProperty(key, "256MB");
      assertEquals(256L << 20, PhysicalIOConfiguration.jvmBudget().bytes());
      System.setProperty(key, "0");
      IllegalArgumentException zero =
          assertThrows(IllegalArgumentException.class, PhysicalIOConfiguration::jvmBudget);
      assertTrue(zero.getMessage().contains("'seekwell.memory.limit'"), zero.getMessage());
      System.setProperty(key, "lots");
      IllegalArgumentException words =
          assertThrows(IllegalArgumentException.class, PhysicalIOConfiguration::jvmBudget);
      assertTrue(words.getMessage().contains("'seekwell.memory.limit'"), words.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }

  @Test
  void everyKeyIsRead() {
    Map<String, String> map =
        Map.of(
            "seekwell.physicalio.max.memory.limit", "256MB",
            "seekwell.physicalio.readaheadbytes", "128KB",
            "seekwell.physicalio.target.request.size", "16MiB",
            "seekwell.physicalio.max.request.size", "32MiB",
            "seekwell.physicalio.request.tolerance.ratio", "1.5",
            "seekwell.physicalio.metadata.cache.size", "50",
            "seekwell.physicalio.metadata.cache.ttl", "30s",
            "seekwell.physicalio.read.timeout", "45s",
            "seekwell.physicalio.fetch.threads", "8",
            "seekwell.physicalio.request.coalesce.tolerance", "256KB");
    assertEquals(
        PhysicalIOConfiguration.builder()
            .maxMemoryLimit(256L << 20)
            .readAheadBytes(128 << 10)
            .targetRequestSize(16 << 20)
            .maxRequestSize(32 << 20)
            .requestToleranceRatio(1.5)
            .metadataCacheSize(50)
            .metadataCacheTtl(Duration.ofSeconds(30))
            .readTimeout(Duration.ofSeconds(45))
            .fetchThreads(8)
            .coalesceTolerance(256 << 10)
            .build(),
        PhysicalIOConfiguration.fromConfiguration(ConnectorConfiguration.of(map, "seekwell.")));
  }

  @Test
  void theLargestRequestSizeIsAtLeastTheTarget() {
    assertEquals(
        256L << 20,
        PhysicalIOConfiguration.fromConfiguration(
                ConnectorConfiguration.of(
                    Map.of("seekwell.physicalio.target.request.size", "256MiB"), "seekwell."))
            .maxRequestSize());
    IllegalArgumentException below =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PhysicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of(
                            "seekwell.physicalio.target.request.size", "16MiB",
                            "seekwell.physicalio.max.request.size", "8MiB"),
                        "seekwell.")));
    assertEquals(
        "'seekwell.physicalio.max.request.size' must be at least"
            + " 'seekwell.physicalio.target.request.size' (16777216 bytes), was 8388608",
        below.getMessage());
  }

  @Test
  void noGetGrowsPastASixteenthOfTheMemoryLimit() {
    PhysicalIOConfiguration small =
        PhysicalIOConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("seekwell.physicalio.max.memory.limit", "256MB"), "seekwell."));
    assertEquals(16L << 20, small.largestRequestSize());
    PhysicalIOConfiguration tiny =
        PhysicalIOConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("seekwell.physicalio.max.memory.limit", "8MB"), "seekwell."));
    assertEquals(8L << 20, tiny.largestRequestSize());
    assertEquals(
        32L << 20,
        PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(1L << 30).largestRequestSize());
  }

  @Test
  void coalesceToleranceCanBeMeasured() {
    assertEquals(
        PhysicalIOConfiguration.AUTO_COALESCE,
        PhysicalIOConfiguration.fromConfiguration(
                ConnectorConfiguration.of(
                    Map.of("seekwell.physicalio.request.coalesce.tolerance", "AUTO"), "seekwell."))
            .coalesceTolerance());
  }

  @Test
  void badValuesNameTheKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PhysicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.physicalio.max.memory.limit", "lots"), "seekwell.")));
    assertEquals(
        "Invalid value 'lots' for configuration key 'seekwell.physicalio.max.memory.limit':"
            + " expected a size such as 65536, 64KB or 8MiB",
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            PhysicalIOConfiguration.fromConfiguration(
                ConnectorConfiguration.of(
                    Map.of("seekwell.physicalio.request.tolerance.ratio", "0.9"), "seekwell.")));
  }

  @Test
  void requestSizesAnArrayCannotHoldAreRejectedNamingTheKey() {
    IllegalArgumentException tooLarge =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PhysicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.physicalio.target.request.size", "3GiB"), "seekwell.")));
    assertEquals(
        "Invalid value '3GiB' for configuration key 'seekwell.physicalio.target.request.size':"
            + " expected at most 2147483639 bytes",
        tooLarge.getMessage());
    IllegalArgumentException timesRatio =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PhysicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of(
                            "seekwell.physicalio.target.request.size", "1800MiB",
                            "seekwell.physicalio.request.tolerance.ratio", "1.25"),
                        "seekwell.")));
    assertTrue(
        timesRatio
            .getMessage()
            .startsWith(
                "'seekwell.physicalio.target.request.size' times"
                    + " 'seekwell.physicalio.request.tolerance.ratio' is the longest GET"),
        timesRatio.getMessage());
    IllegalArgumentException largestTimesRatio =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PhysicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.physicalio.max.request.size", "1800MiB"), "seekwell.")));
    assertTrue(
        largestTimesRatio
            .getMessage()
            .startsWith(
                "'seekwell.physicalio.max.request.size' times"
                    + " 'seekwell.physicalio.request.tolerance.ratio' is the longest GET"),
        largestTimesRatio.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            PhysicalIOConfiguration.builder()
                .maxMemoryLimit(1024)
                .readAheadBytes(1024)
                .targetRequestSize(PhysicalIOConfiguration.MAX_REQUEST_SIZE)
                .maxRequestSize(PhysicalIOConfiguration.MAX_REQUEST_SIZE)
                .metadataCacheSize(10)
                .metadataCacheTtl(Duration.ofMinutes(1))
                .readTimeout(Duration.ofMinutes(1))
                .fetchThreads(1)
                .coalesceTolerance(0)
                .build());
  }
}
