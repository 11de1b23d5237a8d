package io.seekwell.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConnectorConfigurationTest {

  private static ConnectorConfiguration config(String key, String value) {
    return ConnectorConfiguration.of(Map.of("seekwell." + key, value), "seekwell.");
  }

  @Test
  void readsOnlyKeysUnderThePrefix() {
    ConnectorConfiguration config =
        ConnectorConfiguration.of(
            Map.of("seekwell.a", "1", "other.a", "2", "seekwellb", "3"), "seekwell.");
    assertEquals(Map.of("a", "1"), config.asMap());
    assertEquals(1, config.getInt("a", 0));
    assertEquals("seekwell.a", config.fullKey("a"));
  }

  @Test
  void missingKeysGiveDefaults() {
    ConnectorConfiguration config = ConnectorConfiguration.empty();
    assertEquals(42, config.getInt("x", 42));
    assertEquals(7L, config.getLong("x", 7L));
    assertEquals(64, config.getSize("x", 64));
    assertEquals(Duration.ofSeconds(3), config.getDuration("x", Duration.ofSeconds(3)));
    assertTrue(config.getBoolean("x", true));
    assertEquals(Optional.empty(), config.getString("x"));
    assertEquals("d", config.getString("x", "d"));
  }

  @ParameterizedTest
  @CsvSource({
    "65536, 65536",
    "0, 0",
    "64KB, 65536",
    "64kb, 65536",
    "64K, 65536",
    "64KiB, 65536",
    "8MiB, 8388608",
    "8 MB, 8388608",
    "1GB, 1073741824",
    "2GiB, 2147483648",
    "1TB, 1099511627776",
    "100B, 100"
  })
  void parsesSizes(String text, long bytes) {
    assertEquals(bytes, config("size", text).getSize("size", -1));
  }

  @ParameterizedTest
  @CsvSource({"250ms, 250", "250, 250", "30s, 30000", "5m, 300000", "2h, 7200000", "1min, 60000"})
  void parsesDurations(String text, long millis) {
    assertEquals(Duration.ofMillis(millis), config("d", text).getDuration("d", Duration.ZERO));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "-1", "1.5MB", "10XB", "MB", "99999999999999999999"})
  void badSizeNamesKeyAndValue(String text) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                config("physicalio.readaheadbytes", text).getSize("physicalio.readaheadbytes", 1));
    assertEquals(
        "Invalid value '"
            + text
            + "' for configuration key 'seekwell.physicalio.readaheadbytes': expected a size"
            + " such as 65536, 64KB or 8MiB",
        e.getMessage());
  }

  @Test
  void sizeOverflowIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> config("s", "9999999999TB").getSize("s", 1));
    assertTrue(e.getMessage().contains("'9999999999TB'"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"soon", "5 days", "-3s", "1.5s", "s"})
  void badDurationNamesKeyAndValue(String text) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> config("client.timeout", text).getDuration("client.timeout", Duration.ZERO));
    assertEquals(
        "Invalid value '"
            + text
            + "' for configuration key 'seekwell.client.timeout': expected a duration such as"
            + " 250ms, 30s or 5m",
        e.getMessage());
  }

  @Test
  void zeroDurationIsRejectedWhereAPositiveOneIsNeeded() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> config("t", "0s").getPositiveDuration("t", Duration.ofSeconds(1)));
    assertEquals(
        "Invalid value '0s' for configuration key 'seekwell.t': expected a duration greater than"
            + " zero",
        e.getMessage());
  }

  @Test
  void badIntegerAndBoolean() {
    IllegalArgumentException intError =
        assertThrows(IllegalArgumentException.class, () -> config("n", "ten").getInt("n", 1));
    assertEquals(
        "Invalid value 'ten' for configuration key 'seekwell.n': expected an integer",
        intError.getMessage());
    assertThrows(IllegalArgumentException.class, () -> config("n", "1e3").getLong("n", 1));
    IllegalArgumentException boolError =
        assertThrows(
            IllegalArgumentException.class, () -> config("b", "yes").getBoolean("b", true));
    assertEquals(
        "Invalid value 'yes' for configuration key 'seekwell.b': expected true or false",
        boolError.getMessage());
    assertFalse(config("b", "FALSE").getBoolean("b", true));
  }

  @Test
  void valuesBelowTheMinimumAreRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> config("n", "0").getInt("n", 3, 1));
    assertEquals(
        "Invalid value '0' for configuration key 'seekwell.n': expected at least 1",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> config("s", "1KB").getSize("s", 1, 4096));
    assertEquals(8192, config("s", "8KB").getSize("s", 1, 4096));
  }

  enum Mode {
    OFF,
    ROW_GROUP
  }

  @Test
  void enumsMatchIgnoringCase() {
    assertEquals(Mode.ROW_GROUP, config("m", "row_group").getEnum("m", Mode.class, Mode.OFF));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> config("m", "sometimes").getEnum("m", Mode.class, Mode.OFF));
    assertEquals(
        "Invalid value 'sometimes' for configuration key 'seekwell.m': expected one of [OFF,"
            + " ROW_GROUP]",
        e.getMessage());
  }

  @Test
  void narrowKeepsTheFullKeyInErrors() {
    ConnectorConfiguration client = config("client.retry.max.attempts", "x").narrow("client.");
    assertEquals(Map.of("retry.max.attempts", "x"), client.asMap());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> client.getInt("retry.max.attempts", 3));
    assertTrue(e.getMessage().contains("'seekwell.client.retry.max.attempts'"), e.getMessage());
  }

  @Test
  void doubles() {
    assertEquals(1.25, config("r", "1.25").getDouble("r", 1.0, 1.0));
    assertEquals(1.5, ConnectorConfiguration.empty().getDouble("r", 1.5, 1.0));
    IllegalArgumentException below =
        assertThrows(IllegalArgumentException.class, () -> config("r", "0.5").getDouble("r", 1, 1));
    assertEquals(
        "Invalid value '0.5' for configuration key 'seekwell.r': expected a number of at least 1.0",
        below.getMessage());
    assertThrows(IllegalArgumentException.class, () -> config("r", "NaN").getDouble("r", 1, 1));
    assertThrows(IllegalArgumentException.class, () -> config("r", "x").getDouble("r", 1, 1));
  }

  @Test
  void valuesAreTrimmed() {
    assertEquals(65536, config("s", " 64KB ").getSize("s", 1));
  }

  @Test
  void aKeyNoSettingReadIsRefusedWithTheNearestKnownKey() {
    ConnectorConfiguration config =
        ConnectorConfiguration.of(
            Map.of("seekwell.physicalio.max.memory.limt", "1GB", "seekwell.client.x", "1"),
            "seekwell.");
    ConnectorConfiguration physical = config.narrow("physicalio.");
    physical.getSize("max.memory.limit", 1);
    physical.getSize("metadata.cache.size", 1);
    config.getInt("client.x", 0);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> config.requireEveryKeyRead(k -> false));
    assertEquals(
        "Unknown configuration key 'seekwell.physicalio.max.memory.limt': did you mean"
            + " 'seekwell.physicalio.max.memory.limit'?",
        error.getMessage());
    config.requireEveryKeyRead(key -> key.startsWith("seekwell.physicalio."));
  }

  @Test
  void anUnknownKeyFarFromEveryKnownOneIsRefusedWithoutASuggestion() {
    ConnectorConfiguration config = config("something.else.entirely", "1");
    config.getInt("client.retry.max.attempts", 3);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> config.requireEveryKeyRead(k -> false));
    assertEquals(
        "Unknown configuration key 'seekwell.something.else.entirely'", error.getMessage());
  }
}
