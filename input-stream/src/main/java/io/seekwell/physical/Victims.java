package io.seekwell.physical;

/**
 * Which complete blocks an eviction may take, in the order a memory tier tries them. Prefetched
 * blocks nobody has read, of an object a stream has open, are of no kind: they are never evicted.
 */
enum Victims {
  /** Blocks read to their end, and blocks of objects no stream has open. */
  DONE_WITH,
  /** Blocks some reader has read from. */
  READ;

  /** Whether {@code block} of {@code owner} is of this kind. */
  boolean allows(Block block, ObjectBlocks owner) {
    return switch (this) {
      case DONE_WITH -> block.isConsumed() || !owner.isOpen();
      case READ -> block.wasRead();
    };
  }
}
