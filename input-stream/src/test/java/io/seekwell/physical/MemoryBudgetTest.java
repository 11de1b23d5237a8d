package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

  private static final int MIB = 1 << 20;

  @Test
  void anArrayGivenBackServesTheNextBlockOfAboutItsSizeAndStaysCounted() {
    MemoryBudget budget = new MemoryBudget(64L * MIB);
    byte[] first = budget.tryAllocate(8 * MIB);
    budget.free(first);
    assertEquals(8L * MIB, budget.used());
    assertEquals(8L * MIB, budget.kept());

    assertSame(first, budget.tryAllocate(8 * MIB - 1000));
    assertEquals(8L * MIB, budget.used());
    assertEquals(0, budget.kept());
  }

  @Test
  void anArrayMoreThanAnEighthLargerIsNotReused() {
    MemoryBudget budget = new MemoryBudget(64L * MIB);
    byte[] large = budget.tryAllocate(8 * MIB);
    budget.free(large);

    byte[] small = budget.tryAllocate(7 * MIB);
    assertNotSame(large, small);
    assertEquals(7 * MIB, small.length);
    assertEquals(15L * MIB, budget.used());
  }

  @Test
  void keptArraysAreFreedBeforeAnArrayIsRefused() {
    MemoryBudget budget = new MemoryBudget(20L * MIB);
    budget.free(budget.tryAllocate(2 * MIB));
    byte[] a = budget.tryAllocate(9 * MIB);
    assertEquals(2L * MIB, budget.kept());
    byte[] b = budget.tryAllocate(10 * MIB);
    assertNotNull(a);
    assertNotNull(b);
    assertEquals(19L * MIB, budget.used());
    assertEquals(0, budget.kept());

    assertNull(budget.tryAllocate(3 * MIB));
    assertEquals(19L * MIB, budget.used());
  }

  @Test
  void atMostAnEighthOfTheLimitIsKeptAndSmallArraysAreNot() {
    MemoryBudget budget = new MemoryBudget(32L * MIB);
    byte[] a = budget.tryAllocate(3 * MIB);
    byte[] b = budget.tryAllocate(3 * MIB);
    byte[] tiny = budget.tryAllocate(MIB - 1);
    budget.free(a);
    budget.free(b);
    budget.free(tiny);

    assertEquals(3L * MIB, budget.kept());
    assertEquals(3L * MIB, budget.used());
    assertEquals(7L * MIB - 1, budget.highWaterMark());
  }
}
