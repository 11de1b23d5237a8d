package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.testing.ConfigurationReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectClientConfigurationTest {

  @Test
  void defaults() {
    assertEquals(
        ObjectClientConfiguration.builder()
            .maxAttempts(5)
            .baseDelay(Duration.ofMillis(100))
            .maxDelay(Duration.ofSeconds(5))
            .retryDeadline(Duration.ofMinutes(2))
            .connectTimeout(Duration.ofSeconds(10))
            .firstByteTimeout(Duration.ofSeconds(30))
            .readIdleTimeout(Duration.ofSeconds(30))
            .maxConnections(128)
            .resumeMaxAttempts(10)
            .hedgeMaxCopies(2)
            .hedgeFloor(Duration.ofMillis(50))
            .hedgeBudget(0.05)
            .stallFloor(Duration.ofSeconds(1))
            .build(),
        ObjectClientConfiguration.fromConfiguration(ConnectorConfiguration.empty()));
  }

  @Test
  void everyKeyIsRead() {
    Map<String, String> map =
        Map.ofEntries(
            Map.entry("seekwell.client.retry.max.attempts", "3"),
            Map.entry("seekwell.client.retry.base.delay", "20ms"),
            Map.entry("seekwell.client.retry.max.delay", "2s"),
            Map.entry("seekwell.client.retry.deadline", "1m"),
            Map.entry("seekwell.client.connect.timeout", "3s"),
            Map.entry("seekwell.client.first.byte.timeout", "4s"),
            Map.entry("seekwell.client.read.idle.timeout", "6s"),
            Map.entry("seekwell.client.max.connections", "16"),
            Map.entry("seekwell.client.resume.max.attempts", "7"),
            Map.entry("seekwell.client.hedge.max.copies", "0"),
            Map.entry("seekwell.client.hedge.floor", "80ms"),
            Map.entry("seekwell.client.hedge.budget", "0.1"),
            Map.entry("seekwell.client.stall.floor", "2s"),
            Map.entry("seekwell.client.concurrency.max", "300"));
    assertEquals(
        ObjectClientConfiguration.builder()
            .maxAttempts(3)
            .baseDelay(Duration.ofMillis(20))
            .maxDelay(Duration.ofSeconds(2))
            .retryDeadline(Duration.ofMinutes(1))
            .connectTimeout(Duration.ofSeconds(3))
            .firstByteTimeout(Duration.ofSeconds(4))
            .readIdleTimeout(Duration.ofSeconds(6))
            .maxConnections(16)
            .resumeMaxAttempts(7)
            .hedgeMaxCopies(0)
            .hedgeFloor(Duration.ofMillis(80))
            .hedgeBudget(0.1)
            .stallFloor(Duration.ofSeconds(2))
            .concurrencyMax(300)
            .build(),
        ObjectClientConfiguration.fromConfiguration(ConnectorConfiguration.of(map, "seekwell.")));
  }

  @Test
  void badValuesNameTheKey() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ObjectClientConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.client.retry.max.attempts", "0"), "seekwell.")));
    assertEquals(
        "Invalid value '0' for configuration key 'seekwell.client.retry.max.attempts': expected"
            + " at least 1",
        e.getMessage());
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ObjectClientConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.client.read.idle.timeout", "0ms"), "seekwell.")));
    assertEquals(
        "Invalid value '0ms' for configuration key 'seekwell.client.read.idle.timeout': expected"
            + " a duration greater than zero",
        zero.getMessage());
    IllegalArgumentException budget =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ObjectClientConfiguration.fromConfiguration(
                    ConnectorConfiguration.of(
                        Map.of("seekwell.client.hedge.budget", "1.5"), "seekwell.")));
    assertEquals(
        "Invalid value '1.5' for configuration key 'seekwell.client.hedge.budget': expected"
            + " at most 1",
        budget.getMessage());
  }

  @Test
  void aClientSharingAnEnginesPoolHoldsThreeQuartersOfItAtMost() {
    ObjectClientConfiguration defaults = ObjectClientConfiguration.defaults();
    assertEquals(37, defaults.sharingPoolOf(50).maxConnections(), "the SDK's default pool");
    assertEquals(3, defaults.sharingPoolOf(4).maxConnections());
    assertEquals(1, defaults.sharingPoolOf(1).maxConnections());
    assertEquals(128, defaults.sharingPoolOf(500).maxConnections(), "never more than configured");
    assertEquals(
        defaults.toBuilder().maxConnections(37).build(), defaults.sharingPoolOf(50), "only that");
  }

  @Test
  void aBuilderRefusesWhatTheKeyRefusesNamingTheKey() {
    IllegalArgumentException budget =
        assertThrows(
            IllegalArgumentException.class,
            () -> ObjectClientConfiguration.builder().hedgeBudget(1.5).build());
    assertEquals(
        "Invalid value '1.5' for configuration key 'client.hedge.budget': expected at most 1",
        budget.getMessage());
    IllegalArgumentException copies =
        assertThrows(
            IllegalArgumentException.class,
            () -> ObjectClientConfiguration.builder().hedgeMaxCopies(-1).build());
    assertEquals(
        "Invalid value '-1' for configuration key 'client.hedge.max.copies': expected at least 0",
        copies.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> ObjectClientConfiguration.builder().stallFloor(Duration.ZERO).build());
  }

  @Test
  void theReferenceListsTheSettingsAsDeclared() {
    assertEquals(List.of(), ConfigurationReference.mismatches(ObjectClientConfiguration.SETTINGS));
  }
}
