package io.seekwell.physical;

/** Why bytes are fetched, which decides how their block is counted and how long it stays cached. */
public enum FetchPurpose {
  /** A read waits for them. */
  DEMAND,
  /** Ahead of reads that may come more than once: a footer, a small object fetched whole. */
  AHEAD,
  /**
   * Ahead of one stream that reads them once, in order: read-ahead, column chunks, vectored ranges.
   * In an object no other stream has open they may leave the cache as soon as the stream has read
   * through them (see scans in {@link BlockStore}'s design notes).
   */
  SCAN;

  boolean isPrefetch() {
    return this != DEMAND;
  }
}
