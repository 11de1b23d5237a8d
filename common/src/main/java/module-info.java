/**
 * Seekwell's shared types: byte ranges, configuration, metrics and the object client SPI. The
 * timers and stream helpers are for Seekwell's own modules only.
 */
@SuppressWarnings("module") // the modules named below are built after this one
module io.seekwell.common {
  requires org.slf4j;

  exports io.seekwell.common;
  exports io.seekwell.common.config;
  exports io.seekwell.common.metrics;
  exports io.seekwell.common.object;
  exports io.seekwell.common.concurrent to
      io.seekwell.client,
      io.seekwell,
      io.seekwell.parquet;
  exports io.seekwell.common.io to
      io.seekwell.client,
      io.seekwell;
}
