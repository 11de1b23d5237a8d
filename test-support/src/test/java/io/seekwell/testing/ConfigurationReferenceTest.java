package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigurationReferenceTest {

  private static final SettingGroup GROUP =
      SettingGroup.of(
          "demo.",
          Setting.size("buffer", 64 * 1024, 1, "bytes read at once"),
          Setting.count("threads", 4, 1, "threads that read").describingDefault("the cores"),
          Setting.flag("fast", true, "whether to hurry"));

  private static List<String> mismatches(String... rows) {
    return ConfigurationReference.mismatches(GROUP, List.of(rows), List.of("demo.other."));
  }

  @Test
  void aReferenceThatListsTheDeclarationsAgrees() {
    assertEquals(
        List.of(),
        mismatches(
            "| key | default | unit | meaning |",
            "|---|---|---|---|",
            "| `demo.buffer` | `64KB` | size | bytes read at once, in one GET |",
            "| `demo.threads` | the cores | threads | the threads that read |",
            "| `demo.fast` | `TRUE` | boolean | whether to hurry |",
            "| `demo.other.key` | `1` | count | another group's |"));
  }

  @Test
  void everyDriftIsNamed() {
    assertEquals(
        List.of(
            "demo.buffer: the reference's default `32KB` is not the declared",
            "demo.threads: the reference's meaning lacks 'threads that read'",
            "demo.fast: declared, but no row in the reference",
            "demo.slow: in the reference, but declared by no setting"),
        mismatches(
            "| `demo.buffer` | `32KB` | size | bytes read at once |",
            "| `demo.threads` | the cores | threads | readers |",
            "| `demo.slow` | `false` | boolean | whether to dawdle |"));
  }
}
