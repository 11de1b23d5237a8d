package io.seekwell;

/** How the caller expects to read a stream; decides what Seekwell reads ahead. */
public enum InputPolicy {
  /** Front to back, as for CSV or JSON. */
  SEQUENTIAL,
  /** Positional reads anywhere in the object. */
  RANDOM,
  /** A columnar format such as Parquet: footer first, then column chunks. */
  COLUMNAR,
  /** The whole object will be read. */
  WHOLE_FILE,
  /** Unknown: decide from the object's name. */
  DEFAULT
}
