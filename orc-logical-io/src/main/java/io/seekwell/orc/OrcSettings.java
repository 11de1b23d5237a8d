package io.seekwell.orc;

import io.seekwell.common.config.ConnectorConfiguration;

/**
 * How the ORC plug-in reads ahead. Immutable. Keys, under {@code logicalio.orc.}: {@code
 * tail.prefetch.size} and {@code history.size}.
 *
 * @param tailPrefetchSize the bytes fetched from the end of every file at open (default 256 KiB):
 *     the first guess of the tail's length (postscript, footer and stripe statistics); a longer
 *     tail costs one more GET, for the rest
 * @param historySize how many schemas' learned columns are remembered (default 1000)
 */
record OrcSettings(long tailPrefetchSize, int historySize) {

  static final OrcSettings DEFAULT = new OrcSettings(256 * 1024, 1000);

  static OrcSettings fromConfiguration(ConnectorConfiguration orc) {
    return new OrcSettings(
        orc.getSize("tail.prefetch.size", DEFAULT.tailPrefetchSize, OrcTail.LONGEST_POSTSCRIPT),
        orc.getInt("history.size", DEFAULT.historySize, 1));
  }
}
