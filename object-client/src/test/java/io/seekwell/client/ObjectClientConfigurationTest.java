package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.config.ConnectorConfiguration;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectClientConfigurationTest {

  @Test
  void defaults() {
    assertEquals(
        new ObjectClientConfiguration(
            5,
            Duration.ofMillis(100),
            Duration.ofSeconds(5),
            Duration.ofMinutes(2),
            Duration.ofSeconds(10),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30),
            128),
        ObjectClientConfiguration.fromConfiguration(ConnectorConfiguration.empty()));
  }

  @Test
  void everyKeyIsRead() {
    Map<String, String> map =
        Map.of(
            "seekwell.client.retry.max.attempts", "3",
            "seekwell.client.retry.base.delay", "20ms",
            "seekwell.client.retry.max.delay", "2s",
            "seekwell.client.retry.deadline", "1m",
            "seekwell.client.connect.timeout", "3s",
            "seekwell.client.first.byte.timeout", "4s",
            "seekwell.client.read.idle.timeout", "6s",
            "seekwell.client.max.connections", "16");
    assertEquals(
        new ObjectClientConfiguration(
            3,
            Duration.ofMillis(20),
            Duration.ofSeconds(2),
            Duration.ofMinutes(1),
            Duration.ofSeconds(3),
            Duration.ofSeconds(4),
            Duration.ofSeconds(6),
            16),
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
  }
}
