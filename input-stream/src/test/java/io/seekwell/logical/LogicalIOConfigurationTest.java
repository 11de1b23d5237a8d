package io.seekwell.logical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.config.ConnectorConfiguration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogicalIOConfigurationTest {

  private static final long MIB = 1024 * 1024;

  @Test
  void defaults() {
    assertEquals(
        new LogicalIOConfiguration(
            true, 8 * MIB, true, 2 * MIB, 128 * MIB, List.of(".csv", ".json", ".jsonl", ".txt")),
        LogicalIOConfiguration.fromConfiguration(ConnectorConfiguration.empty()));
  }

  @Test
  void everyKeyIsRead() {
    Map<String, String> map =
        Map.of(
            "seekwell.logicalio.small.object.prefetch", "false",
            "seekwell.logicalio.small.object.size.threshold", "1MB",
            "seekwell.logicalio.sequentialprefetch.enabled", "false",
            "seekwell.logicalio.sequentialprefetch.initial.size", "4MB",
            "seekwell.logicalio.sequentialprefetch.max.size", "64MB",
            "seekwell.logicalio.sequential.suffixes", ".LOG, .tsv");
    assertEquals(
        new LogicalIOConfiguration(false, MIB, false, 4 * MIB, 64 * MIB, List.of(".log", ".tsv")),
        LogicalIOConfiguration.fromConfiguration(ConnectorConfiguration.of(map, "seekwell.")));
  }

  @Test
  void aMaximumBelowTheInitialSizeIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LogicalIOConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.logicalio.sequentialprefetch.max.size", "1MB"),
                        "seekwell.")));
    assertEquals(
        "Invalid value '1MB' for configuration key"
            + " 'seekwell.logicalio.sequentialprefetch.max.size': expected at least 2097152",
        e.getMessage());
  }
}
