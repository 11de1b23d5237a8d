package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionsTest {

  private static Options parse(String... args) {
    return Options.parse("TestBenchmark", Set.of("iterations", "paths", "smoke", "seconds"), args);
  }

  @Test
  void anOptionTheProgramDoesNotTakeIsRefusedByName() {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> parse("--iteration", "3"));
    assertEquals(
        "TestBenchmark does not take --iteration; it takes --access-key, --endpoint, --iterations,"
            + " --paths, --profile, --seconds, --secret-key, --smoke",
        refused.getMessage());
  }

  @Test
  void anOptionWithoutAValueIsRefused() {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> parse("--paths", "aal", "--smoke"));
    assertEquals("TestBenchmark: expected --name value pairs, got: --smoke", refused.getMessage());
  }

  @Test
  void valuesAreReadAsTheirTypes() {
    Options options =
        parse(
            "--iterations",
            "7",
            "--paths",
            " seekwell, aal,,",
            "--seconds",
            "2.5",
            "--smoke",
            "true");
    assertEquals(7, options.integer("iterations", 1));
    assertEquals(2.5, options.decimal("seconds", 10));
    assertEquals(List.of("seekwell", "aal"), options.list("paths", "x"));
    assertTrue(options.flag("smoke"));
    assertTrue(options.has("paths"));
    assertFalse(options.has("endpoint"));
  }

  @Test
  void defaultsApplyToOptionsNotGiven() {
    Options options = parse();
    assertEquals(5, options.integer("iterations", 5));
    assertEquals(16L, options.longInteger("seconds", 16));
    assertEquals(List.of(1, 16), options.list("paths", "1,16", "numbers", Integer::valueOf));
    assertFalse(options.flag("smoke"));
    assertEquals("loopback", options.text("profile", "loopback"));
  }

  @Test
  void aValueOfTheWrongTypeIsRefusedWithTheOptionsName() {
    assertEquals(
        "TestBenchmark: --iterations takes a whole number, was three",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse("--iterations", "three").integer("iterations", 1))
            .getMessage());
    assertEquals(
        "TestBenchmark: --smoke takes true or false, was yes",
        assertThrows(IllegalArgumentException.class, () -> parse("--smoke", "yes").flag("smoke"))
            .getMessage());
    assertEquals(
        "TestBenchmark: --paths takes numbers, was x",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse("--paths", "1,x").list("paths", "", "numbers", Integer::valueOf))
            .getMessage());
  }

  @Test
  void aRequiredOptionMissingIsNamed() {
    assertEquals(
        "TestBenchmark needs --endpoint",
        assertThrows(IllegalArgumentException.class, () -> parse().required("endpoint"))
            .getMessage());
  }

  @Test
  void aSmokeRunJudgesNoTarget() {
    assertEquals(
        Options.SMOKE_NOTE + "\n",
        parse("--smoke", "true")
            .targetsOrSmokeNote(
                () -> {
                  throw new AssertionError("targets judged in a smoke run");
                }));
    assertEquals("- a target — met\n", parse().targetsOrSmokeNote(() -> "- a target — met\n"));
  }
}
