/** Seekwell's Parquet plug-in: reads a file's footer and prefetches the column chunks it names. */
@SuppressWarnings("requires-automatic") // parquet-format-structures has no module descriptor
module io.seekwell.parquet {
  requires transitive io.seekwell;
  requires com.github.benmanes.caffeine;
  requires org.slf4j;
  requires parquet.format.structures;

  exports io.seekwell.parquet;

  provides io.seekwell.logical.FormatPlugin with
      io.seekwell.parquet.ParquetFormatPlugin;
}
