package io.seekwell.bench.planning;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class PlanningBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(PlanningBenchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("PlanningBenchmark", PlanningBenchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
