package io.seekwell.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SettingGroupTest {

  private static final Setting<Integer> ATTEMPTS =
      Setting.count("retry.attempts", 5, 1, "attempts per request");
  private static final Setting<Long> BUFFER =
      Setting.size("buffer", 64 << 10, 1, 1 << 20, "the buffer").orWord("auto", -1L);
  private static final Setting<Double> SHARE = Setting.number("share", 0.5, 0, 1, "a share");
  private static final Setting<Duration> WAIT =
      Setting.positiveDuration("wait", Duration.ofSeconds(1), "how long to wait");
  private static final Setting<List<String>> NAMES =
      Setting.list("names", List.of(".a"), "names")
          .allowing(names -> !names.contains(".b"), "no .b");
  private static final Setting<Optional<String>> DIR = Setting.text("dir", "a directory");
  private static final SettingGroup GROUP =
      SettingGroup.of("test.", ATTEMPTS, BUFFER, SHARE, WAIT, NAMES, DIR);

  private static ConnectorConfiguration config(Map<String, String> map) {
    return ConnectorConfiguration.of(map, "seekwell.");
  }

  private static String refusal(String key, String value) {
    return assertThrows(
            IllegalArgumentException.class,
            () -> GROUP.read(config(Map.of("seekwell.test." + key, value))))
        .getMessage();
  }

  @Test
  void unsetKeysGetTheDeclaredDefaults() {
    SettingValues defaults = GROUP.read(config(Map.of()));
    assertEquals(GROUP.defaults(), defaults);
    assertEquals(5, defaults.get(ATTEMPTS));
    assertEquals(64 << 10, defaults.get(BUFFER));
    assertEquals(Optional.empty(), defaults.get(DIR));
  }

  @Test
  void setKeysAreParsed() {
    SettingValues read =
        GROUP.read(
            config(
                Map.of(
                    "seekwell.test.retry.attempts", "3",
                    "seekwell.test.buffer", "AUTO",
                    "seekwell.test.share", "0.25",
                    "seekwell.test.wait", "250ms",
                    "seekwell.test.names", " .x , ,.y",
                    "seekwell.test.dir", " /tmp/cache ")));
    assertEquals(3, read.get(ATTEMPTS));
    assertEquals(-1L, read.get(BUFFER));
    assertEquals(0.25, read.get(SHARE));
    assertEquals(Duration.ofMillis(250), read.get(WAIT));
    assertEquals(List.of(".x", ".y"), read.get(NAMES));
    assertEquals(Optional.of("/tmp/cache"), read.get(DIR));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "retry.attempts; 0; at least 1",
        "buffer; 2MB; at most 1048576 bytes",
        "buffer; lots; a size such as 65536, 64KB or 8MiB",
        "share; 1.5; at most 1",
        "share; -1; a number of at least 0.0",
        "wait; 0s; a duration greater than zero",
        "names; '.a,.b'; no .b"
      })
  void aBadValueNamesTheFullKeyAndTheRange(String key, String value, String expected) {
    assertEquals(
        "Invalid value '"
            + value
            + "' for configuration key 'seekwell.test."
            + key
            + "': expected "
            + expected,
        refusal(key, value));
  }

  @Test
  void aValueSetInCodeIsCheckedAgainstTheSameRange() {
    SettingValues defaults = GROUP.defaults();
    assertEquals(
        "Invalid value '0' for configuration key 'test.retry.attempts': expected at least 1",
        assertThrows(IllegalArgumentException.class, () -> defaults.with(ATTEMPTS, 0))
            .getMessage());
    assertEquals(
        "Invalid value 'null' for configuration key 'test.wait': expected a value",
        assertThrows(IllegalArgumentException.class, () -> defaults.with(WAIT, null)).getMessage());
    SettingValues changed = defaults.with(ATTEMPTS, 2);
    assertEquals(2, changed.get(ATTEMPTS));
    assertEquals(5, defaults.get(ATTEMPTS), "values are immutable");
    assertNotEquals(defaults, changed);
    assertEquals(defaults, changed.with(ATTEMPTS, 5));
  }

  @Test
  void aKeyNoSettingDeclaresIsRefused() {
    ConnectorConfiguration config =
        config(Map.of("seekwell.test.retry.atempts", "3", "seekwell.test.wait", "2s"));
    GROUP.read(config);
    assertEquals(
        "Unknown configuration key 'seekwell.test.retry.atempts': did you mean"
            + " 'seekwell.test.retry.attempts'?",
        assertThrows(IllegalArgumentException.class, () -> config.requireEveryKeyRead(k -> false))
            .getMessage());
  }

  @Test
  void aSettingOfAnotherGroupOrAKeyDeclaredTwiceIsRefused() {
    Setting<Integer> other = Setting.count("other", 1, 0, "another");
    assertThrows(IllegalArgumentException.class, () -> GROUP.defaults().get(other));
    assertThrows(IllegalArgumentException.class, () -> GROUP.defaults().with(other, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> SettingGroup.of("x.", ATTEMPTS, Setting.count("retry.attempts", 1, 0, "again")));
  }

  @Test
  void valuesPrintInDeclarationOrder() {
    assertEquals(
        "{retry.attempts=5, buffer=65536, share=0.5, wait=PT1S, names=[.a], dir=Optional.empty}",
        GROUP.defaults().toString());
  }
}
