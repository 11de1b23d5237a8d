package io.seekwell.bench.faults;

import io.seekwell.bench.Options;
import org.junit.jupiter.api.Test;

class FaultBenchmarkOptionsTest {

  @Test
  void takesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes the profile's program, besides the store's options.
    Options.parse(
        "FaultBenchmark",
        FaultBenchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server",
          "t",
          "--scale",
          "quick",
          "--iterations",
          "1",
          "--faults",
          "cut-rst",
          "--fractions",
          "0.25",
          "--deadline",
          "120",
          "--smoke",
          "true",
          "--report",
          "r.md",
          "--paths",
          "seekwell",
          "--workloads",
          "W1"
        });
  }
}
