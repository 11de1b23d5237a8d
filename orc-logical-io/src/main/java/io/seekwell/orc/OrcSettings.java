package io.seekwell.orc;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;

/**
 * How the ORC plug-in reads ahead. Immutable. Each key, under {@code logicalio.orc.}, is declared
 * once in {@link #SETTINGS}.
 *
 * @param tailPrefetchSize the bytes fetched from the end of every file at open: the first guess of
 *     the tail's length (postscript, footer and stripe statistics); a longer tail costs one more
 *     GET, for the rest
 * @param historySize how many schemas' learned columns are remembered
 */
record OrcSettings(long tailPrefetchSize, int historySize) {

  private static final Setting<Long> TAIL_PREFETCH_SIZE =
      Setting.size(
          "tail.prefetch.size",
          256 * 1024,
          OrcTail.LONGEST_POSTSCRIPT,
          "the bytes fetched from the end with one GET at open");
  private static final Setting<Integer> HISTORY_SIZE =
      Setting.count(
          "history.size",
          1000,
          1,
          "how many schemas' learned columns (and whether their readers read stripes whole) are"
              + " remembered");

  /** The plug-in's settings, under {@code logicalio.orc.}. */
  static final SettingGroup SETTINGS =
      SettingGroup.of("logicalio.orc.", TAIL_PREFETCH_SIZE, HISTORY_SIZE);

  static final OrcSettings DEFAULT =
      new OrcSettings(TAIL_PREFETCH_SIZE.defaultValue(), HISTORY_SIZE.defaultValue());

  static OrcSettings fromConfiguration(ConnectorConfiguration orc) {
    return new OrcSettings(TAIL_PREFETCH_SIZE.read(orc), HISTORY_SIZE.read(orc));
  }
}
