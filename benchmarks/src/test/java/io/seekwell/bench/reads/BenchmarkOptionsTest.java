package io.seekwell.bench.reads;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(Benchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("Benchmark", Benchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
