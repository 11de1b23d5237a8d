package io.seekwell.physical;

/** Which complete blocks an eviction may take, in the order a memory tier tries them. */
enum Victims {
  /** Blocks read to their end, and blocks of objects no stream has open. */
  DONE_WITH,
  /** Blocks some reader has read from. */
  READ,
  /** Every complete block, prefetched ones nobody has read included. */
  ANY;

  /** Whether {@code block} of {@code owner} is of this kind. */
  boolean allows(Block block, ObjectBlocks owner) {
    return switch (this) {
      case DONE_WITH -> block.isConsumed() || !owner.isOpen();
      case READ -> block.wasRead();
      case ANY -> true;
    };
  }
}
