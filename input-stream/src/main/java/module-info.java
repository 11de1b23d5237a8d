/**
 * Seekwell's stream: the factory and its streams, their configuration, and the format plug-in SPI.
 * Physical IO (blocks, tiers, fetching) is internal.
 */
module io.seekwell {
  requires transitive io.seekwell.common;
  requires transitive io.seekwell.client;
  requires com.github.benmanes.caffeine;
  requires jdk.unsupported;
  requires org.slf4j;

  exports io.seekwell;
  exports io.seekwell.logical;

  uses io.seekwell.logical.FormatPlugin;
}
