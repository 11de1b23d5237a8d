package io.seekwell.parquet;

/** Which learned columns a Parquet stream prefetches. */
public enum PrefetchMode {
  /** None: only the footer is fetched ahead. */
  OFF,
  /** The learned columns of the row group being read and the next one. */
  ROW_GROUP,
  /** The learned columns of every row group, at open. */
  ALL
}
