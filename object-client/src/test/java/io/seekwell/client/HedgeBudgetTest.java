package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HedgeBudgetTest {

  private final HedgeBudget budget = new HedgeBudget(0.05);

  @Test
  void aColdBudgetHoldsItsBurst() {
    assertEquals(HedgeBudget.BURST, tokensLeft());
  }

  @Test
  void twentyGetsAtATwentiethEachEarnOneHedge() {
    tokensLeft();
    for (int i = 0; i < 19; i++) {
      budget.earn();
    }
    assertFalse(budget.tryTake());
    budget.earn();
    assertTrue(budget.tryTake());
    assertFalse(budget.tryTake());
  }

  @Test
  void aHedgeThatWonBringsBackItsTokensAndOneMore() {
    tokensLeft();
    budget.hedgeWon(2);
    assertEquals(3, tokensLeft());
  }

  /** Takes every token there is now, and says how many there were. */
  private int tokensLeft() {
    int taken = 0;
    while (budget.tryTake()) {
      taken++;
    }
    return taken;
  }
}
