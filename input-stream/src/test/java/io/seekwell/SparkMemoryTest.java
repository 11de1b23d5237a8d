package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SparkMemoryTest {

  private static final long MIB = 1L << 20;

  @Test
  void theBoundIsHalfOfWhatSparkLeavesOutsideItsMemoryManager() {
    // A 1 GiB executor: (1024 - 300) MiB, 40 % of it outside the memory manager, half of that.
    assertEquals((long) (724 * MIB * 0.4 / 2), SparkMemory.limit(1024 * MIB, 0.6));
    assertEquals((long) (3796 * MIB * 0.2 / 2), SparkMemory.limit(4096 * MIB, 0.8));
  }

  @Test
  void theBoundIsNeverBelowSixteenMib() {
    assertEquals(16 * MIB, SparkMemory.limit(1024 * MIB, 0.99));
    assertEquals(16 * MIB, SparkMemory.limit(200 * MIB, 0.6));
  }

  @Test
  void aJvmWithoutSparkHasNoEngineBoundAndTheBudgetFollowsTheHeap() {
    assertEquals(Optional.empty(), new SparkMemory().blockMemoryLimit(1024 * MIB));
    String key = PhysicalIOConfiguration.JVM_MEMORY_LIMIT.key();
    if (System.getProperty(key) == null) {
      EngineMemory.Bound bound = PhysicalIOConfiguration.jvmMemoryBound();
      assertEquals(Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4), bound.bytes());
      assertTrue(bound.source().contains("quarter of the heap"), bound.source());
    }
  }
}
