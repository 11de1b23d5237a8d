package io.seekwell.parquet;

/** Which learned columns a Parquet stream prefetches. */
public enum PrefetchMode {
  /** None: only the footer is fetched ahead. */
  OFF,
  /**
   * The learned columns of the first two row groups at open, then of the row group after the one
   * being read.
   */
  ROW_GROUP,
  /**
   * The learned columns of every row group at open; a column first read while reading is then
   * prefetched for every later row group.
   */
  ALL
}
