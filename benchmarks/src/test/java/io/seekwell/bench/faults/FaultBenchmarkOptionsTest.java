package io.seekwell.bench.faults;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class FaultBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(FaultBenchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("FaultBenchmark", FaultBenchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
