package io.seekwell.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TpchBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(TpchBenchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("TpchBenchmark", TpchBenchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
