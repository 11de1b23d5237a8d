package io.seekwell.bench.soak;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class SoakBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(SoakBenchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("SoakBenchmark", SoakBenchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
