package io.seekwell.bench.soak;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class SoakBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(SoakBenchmark.class, SoakBenchmark.OPTIONS);
  }
}
