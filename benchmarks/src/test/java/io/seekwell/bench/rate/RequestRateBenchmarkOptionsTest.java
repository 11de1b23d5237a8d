package io.seekwell.bench.rate;

import io.seekwell.bench.BenchScript;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class RequestRateBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(
        RequestRateBenchmark.class, RequestRateBenchmark.OPTIONS);
  }
}
