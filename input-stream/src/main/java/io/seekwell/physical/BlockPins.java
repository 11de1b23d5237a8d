package io.seekwell.physical;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Blocks one user pins for a while, each once, and unpins together. Not thread-safe: one thread
 * gathers the pins; whoever holds the set afterwards releases it.
 */
public final class BlockPins {

  private final Set<Block> pinned = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Pins {@code block} unless pinned here already; false if it was released and cannot be. */
  boolean pin(Block block) {
    if (pinned.contains(block)) {
      return true;
    }
    if (!block.tryPin()) {
      return false;
    }
    pinned.add(block);
    return true;
  }

  /** The blocks pinned, as an immutable list to release later ({@link #release(List)}). */
  public List<Block> toList() {
    return List.copyOf(pinned);
  }

  /** Unpins every block pinned here. */
  public void release() {
    pinned.forEach(Block::unpin);
  }

  /** Unpins every block of {@code blocks}. */
  public static void release(List<Block> blocks) {
    blocks.forEach(Block::unpin);
  }
}
