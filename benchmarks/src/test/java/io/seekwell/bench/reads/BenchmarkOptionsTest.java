package io.seekwell.bench.reads;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(Benchmark.class, Benchmark.OPTIONS);
  }
}
