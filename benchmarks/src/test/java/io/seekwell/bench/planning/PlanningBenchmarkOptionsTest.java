package io.seekwell.bench.planning;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class PlanningBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(PlanningBenchmark.class, PlanningBenchmark.OPTIONS);
  }
}
