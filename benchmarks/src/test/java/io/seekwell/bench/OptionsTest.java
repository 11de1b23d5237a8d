package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionsTest {

  @Test
  void aSmokeRunJudgesNoTarget() {
    assertEquals(
        Options.SMOKE_NOTE + "\n",
        Options.targetsOrSmokeNote(
            Map.of("smoke", "true"),
            () -> {
              throw new AssertionError("targets judged in a smoke run");
            }));
    assertEquals(
        "- a target — met\n", Options.targetsOrSmokeNote(Map.of(), () -> "- a target — met\n"));
  }
}
