package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JVM's budget, its page pool, and the factories' budgets within it. */
class MemoryBudgetTest {

  private static final int PAGE = PagePool.PAGE;
  private static final int MIB = 1 << 20;

  @Test
  void pagesGivenBackServeTheNextBlocksOfAnyFactoryAndStayCountedInTheJvm() {
    PagePool pool = new PagePool(new SharedBudget(64L * MIB));
    MemoryBudget first = new MemoryBudget(32L * MIB, pool);
    byte[][] pages = first.tryAllocate(8 * MIB, 0);
    assertEquals(8 * MIB / PAGE, pages.length);
    assertEquals(8 * MIB / PAGE, pool.pagesMade());
    first.free(pages, 8 * MIB);
    assertEquals(0, first.own().used());
    assertEquals(8L * MIB, pool.keptBytes());
    assertEquals(8L * MIB, pool.budget().bound().used());

    MemoryBudget second = new MemoryBudget(32L * MIB, pool);
    byte[][] again = second.tryAllocate(4 * MIB + 3 * PAGE, 0);
    assertEquals(8 * MIB / PAGE, pool.pagesMade());
    assertSame(pages[0], again[0]);
    assertEquals(4L * MIB + 3 * PAGE, second.own().used());
    assertEquals(8L * MIB, pool.budget().bound().used());
  }

  @Test
  void aBlockThatIsNoWholeNumberOfPagesEndsInAShorterArrayThatIsNotKept() {
    PagePool pool = new PagePool(new SharedBudget(MIB));
    MemoryBudget budget = new MemoryBudget(MIB, pool);
    byte[][] pages = budget.tryAllocate(2 * PAGE + 100, 0);
    assertEquals(3, pages.length);
    assertEquals(100, pages[2].length);
    assertEquals(2L * PAGE + 100, pool.budget().bound().used());

    budget.free(pages, 2 * PAGE + 100);
    assertEquals(2L * PAGE, pool.keptBytes());
    assertEquals(2L * PAGE, pool.budget().bound().used());
  }

  @Test
  void keptPagesAreReleasedForABlockThatWouldNotFitAndARefusalLosesNone() {
    PagePool pool = new PagePool(new SharedBudget(4L * PAGE));
    MemoryBudget budget = new MemoryBudget(8L * PAGE, pool);
    budget.free(budget.tryAllocate(4 * PAGE, 0), 4 * PAGE);

    byte[][] small = budget.tryAllocate(100, 0);
    assertNotNull(small);
    assertEquals(3L * PAGE, pool.keptBytes());
    assertEquals(3L * PAGE + 100, pool.budget().bound().used());

    assertNull(budget.tryAllocate(4 * PAGE, 0));
    assertEquals(3L * PAGE, pool.keptBytes());
    assertEquals(3L * PAGE + 100, pool.budget().bound().used());
    assertEquals(100, budget.own().used());
    assertTrue(pool.budget().bound().highWaterMark() <= 4L * PAGE);
  }

  @Test
  void aFactoryIsBoundByItsOwnLimitAndAllFactoriesByTheJvms() {
    PagePool pool = new PagePool(new SharedBudget(4L * PAGE));
    MemoryBudget capped = new MemoryBudget(2L * PAGE, pool);
    MemoryBudget other = new MemoryBudget(4L * PAGE, pool);

    assertNull(capped.tryAllocate(3 * PAGE, 0));
    assertNotNull(capped.tryAllocate(2 * PAGE, 0));
    assertEquals(PAGE, capped.ownDeficit(PAGE));
    assertNull(other.tryAllocate(3 * PAGE, 0));
    assertEquals(PAGE, pool.deficit(3 * PAGE));
    assertEquals(0, other.own().used());
    assertNotNull(other.tryAllocate(2 * PAGE, 0));
    assertEquals(4L * PAGE, pool.budget().bound().highWaterMark());
  }
}
