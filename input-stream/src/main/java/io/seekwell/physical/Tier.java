package io.seekwell.physical;

/**
 * A cache tier of the block store: a place that may hold bytes of object versions. The store asks
 * its tiers in order (the memory tier first) to fill a new block, GETs what none held, then offers
 * the block to every tier above the lowest source of its bytes (all of them if a GET brought any).
 * A new kind of cache (a peer's, a shared local one) is a new implementation, not a new branch in
 * the store.
 *
 * <p>{@link #fill} and {@link #take} run on the fetch thread of the block, which the block's fetch
 * has pinned; an implementation must be thread-safe across blocks. Neither throws: a tier that
 * fails reads or writes nothing and says so in its own metrics and log, and the GET serves the
 * bytes.
 */
public interface Tier extends AutoCloseable {

  /**
   * Fills {@code block}, from its first missing byte on, with what this tier holds of its object
   * version, as {@code context} allows.
   *
   * @return how many bytes it filled (0 if it holds none of them)
   */
  int fill(Block block, FetchContext context);

  /** Takes the bytes of {@code block}, now complete, as {@code context} allows. */
  void take(Block block, FetchContext context);

  /**
   * Lets go of what the tier holds for its store, once, when the store closes (its fetch threads
   * stopped); throws nothing. A tier with nothing to let go of keeps this default, which does
   * nothing.
   */
  @Override
  default void close() {}
}
