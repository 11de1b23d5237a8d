package io.seekwell.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class RunHeaderTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-30T13:45:59Z"), ZoneId.of("Europe/Berlin"));

  @Test
  void namesTheMinuteInUtcAndTheRevisionTheClassesWereBuiltFrom() {
    assertEquals(
        "Run on 2026-11-30 13:45 UTC, the code of ac245ef-dirty: 2 cores, Java 17.0.15",
        RunHeader.runOn(CLOCK, " ac245ef-dirty\n", 2, "17.0.15"));
  }

  @Test
  void saysSoWhenNoRevisionWasGiven() {
    assertEquals(
        "Run on 2026-11-30 13:45 UTC, the code of an unknown revision (none given): 8 cores,"
            + " Java 25",
        RunHeader.runOn(CLOCK, "", 8, "25"));
  }
}
