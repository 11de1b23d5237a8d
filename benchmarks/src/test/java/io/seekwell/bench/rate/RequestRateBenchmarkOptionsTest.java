package io.seekwell.bench.rate;

import io.seekwell.bench.Options;
import org.junit.jupiter.api.Test;

class RequestRateBenchmarkOptionsTest {

  @Test
  void takesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes the profile's program, besides the store's options.
    Options.parse(
        "RequestRateBenchmark",
        RequestRateBenchmark.OPTIONS,
        new String[] {
          "--threads",
          "16",
          "--seconds",
          "2",
          "--objects",
          "8",
          "--object-mb",
          "16",
          "--memory-mb",
          "8",
          "--throttle",
          "100",
          "--append",
          "true",
          "--smoke",
          "true",
          "--report",
          "r.md"
        });
  }
}
