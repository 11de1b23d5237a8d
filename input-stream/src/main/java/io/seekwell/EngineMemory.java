package io.seekwell;

import io.seekwell.PhysicalIOConfiguration.JvmBudget;
import java.util.List;
import java.util.Optional;

/**
 * What the engine this JVM runs leaves for Seekwell's block memory: the engine sizes the heap and
 * says how much of it its own memory manager takes; the rest holds everything else the engine's
 * tasks allocate, Seekwell's blocks among them. One implementation per engine; a JVM that runs none
 * of them has no engine bound, and the budget follows the heap alone.
 */
interface EngineMemory {

  /** The engines Seekwell asks, in order. */
  List<EngineMemory> ENGINES = List.of(new SparkMemory());

  /**
   * The bound this engine sets on the block memory of every factory of a JVM of {@code maxHeap}
   * bytes of heap, or empty if this JVM does not run the engine (or it cannot be asked).
   */
  Optional<JvmBudget> blockMemoryLimit(long maxHeap);

  /** The first bound an engine of {@link #ENGINES} sets, if any does. */
  static Optional<JvmBudget> ofThisJvm(long maxHeap) {
    for (EngineMemory engine : ENGINES) {
      Optional<JvmBudget> bound = engine.blockMemoryLimit(maxHeap);
      if (bound.isPresent()) {
        return bound;
      }
    }
    return Optional.empty();
  }
}
