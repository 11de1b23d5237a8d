package io.seekwell.bench.rate;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class RequestRateBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    for (String[] arguments : BenchScript.invocations(RequestRateBenchmark.class)) {
      assertDoesNotThrow(
          () -> Options.parse("RequestRateBenchmark", RequestRateBenchmark.OPTIONS, arguments),
          String.join(" ", arguments));
    }
  }
}
