package io.seekwell.parquet;

/** Which learned columns a Parquet stream prefetches. */
public enum PrefetchMode {
  /** None: only the footer is fetched ahead. */
  OFF,
  /**
   * At the stream's first read of columns, the learned columns of the row group it reads and the
   * next; then of the row group after the one being read.
   */
  ROW_GROUP,
  /**
   * At the stream's first read of columns, the learned columns of every row group from the one it
   * reads; a column first read while reading is then prefetched for every later row group.
   */
  ALL
}
