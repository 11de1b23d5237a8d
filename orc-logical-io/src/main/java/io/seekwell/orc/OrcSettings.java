package io.seekwell.orc;

import io.seekwell.common.config.ConnectorConfiguration;

/**
 * How much of an ORC file's end is fetched at open. Immutable. Key, under {@code logicalio.orc.}:
 * {@code tail.prefetch.size} (default 256 KiB), the first guess of the tail's length (postscript,
 * footer and stripe statistics); a longer tail costs one more GET, for the rest.
 *
 * @param tailPrefetchSize the bytes fetched from the end of every file at open
 */
record OrcSettings(long tailPrefetchSize) {

  static final OrcSettings DEFAULT = new OrcSettings(256 * 1024);

  static OrcSettings fromConfiguration(ConnectorConfiguration orc) {
    return new OrcSettings(
        orc.getSize("tail.prefetch.size", DEFAULT.tailPrefetchSize, OrcTail.LONGEST_POSTSCRIPT));
  }
}
