package io.seekwell.bench.tpch;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TpchBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(TpchBenchmark.class, TpchBenchmark.OPTIONS);
  }
}
