package io.seekwell.bench.faults;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class FaultBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(FaultBenchmark.class, FaultBenchmark.OPTIONS);
  }
}
