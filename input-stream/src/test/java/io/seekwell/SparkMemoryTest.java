package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.PhysicalIOConfiguration.JvmBudget;
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
  void aRunningSparksFractionSetsTheBoundAndSaysSo() {
    JvmBudget half = new SparkMemory(() -> Optional.of(0.5)).blockMemoryLimit(1324 * MIB).get();
    assertEquals(256 * MIB, half.bytes());
    assertEquals("half of Spark's user memory, spark.memory.fraction 0.5", half.source());
    JvmBudget floor = new SparkMemory(() -> Optional.of(0.99)).blockMemoryLimit(1024 * MIB).get();
    assertEquals(16 * MIB, floor.bytes());
    assertTrue(floor.source().startsWith("at least 16 MiB"), floor.source());
    assertEquals(Optional.empty(), new SparkMemory(Optional::empty).blockMemoryLimit(1024 * MIB));
  }

  @Test
  void aJvmWithoutSparkHasNoEngineBoundAndTheBudgetFollowsTheHeap() {
    assertEquals(Optional.empty(), new SparkMemory().blockMemoryLimit(1024 * MIB));
    String key = PhysicalIOConfiguration.JVM_MEMORY_LIMIT.key();
    String before = System.getProperty(key);
    try {
      System.clearProperty(key);
      JvmBudget budget = PhysicalIOConfiguration.jvmBudget();
      assertEquals(Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4), budget.bytes());
      assertEquals("1 GiB or a quarter of the heap", budget.source());
    } finally {
      if (before != null) {
        System.setProperty(key, before);
      }
    }
  }
}
