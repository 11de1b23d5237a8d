package io.seekwell.common.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RequestOptionsTest {

  /** An attempt as the resilience layer sets one: state, not a value. */
  private static final class Sample implements RequestAttempt {
    @Override
    public String name() {
      return "attempt 1 (TRY)";
    }

    @Override
    public long deadlineNanos() {
      return 0;
    }

    @Override
    public boolean sent() {
      return true;
    }
  }

  @Test
  void optionsThatDifferOnlyInTheirAttemptAreEqualAndPrintAlike() {
    RequestOptions plain = RequestOptions.none().withAuditInfo("query 7");
    RequestOptions attempted = plain.withAttempt(new Sample());
    assertEquals(plain, attempted);
    assertEquals(plain.hashCode(), attempted.hashCode());
    assertEquals(plain.toString(), attempted.toString());
    assertFalse(attempted.toString().contains("attempt"), attempted::toString);
    assertTrue(attempted.toString().contains("query 7"), attempted::toString);
  }

  @Test
  void everyOtherComponentCounts() {
    RequestOptions plain = RequestOptions.none();
    assertNotEquals(plain, plain.asPrefetch());
    assertNotEquals(plain, plain.withHeadersTimeout(Duration.ofSeconds(1)));
    assertNotEquals(plain, plain.withUserAgentSuffix("trino/470"));
  }

  @Test
  void withoutAttemptDropsOnlyTheAttempt() {
    RequestOptions plain = RequestOptions.none().asPrefetch();
    RequestOptions stripped = plain.withAttempt(new Sample()).withoutAttempt();
    assertTrue(stripped.attempt().isEmpty());
    assertTrue(stripped.prefetch());
    assertSame(plain, plain.withoutAttempt(), "nothing to strip");
  }
}
