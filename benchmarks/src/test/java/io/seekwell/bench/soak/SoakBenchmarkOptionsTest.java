package io.seekwell.bench.soak;

import io.seekwell.bench.Options;
import org.junit.jupiter.api.Test;

class SoakBenchmarkOptionsTest {

  @Test
  void takesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes the profile's program, besides the store's options.
    Options.parse(
        "SoakBenchmark",
        SoakBenchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server",
          "t",
          "--scale",
          "quick",
          "--minutes",
          "2",
          "--warmup-minutes",
          "1",
          "--sample-seconds",
          "10",
          "--seekwell",
          "physicalio.max.memory.limit=16MB",
          "--report",
          "r.md"
        });
  }
}
