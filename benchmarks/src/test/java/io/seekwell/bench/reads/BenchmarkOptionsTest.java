package io.seekwell.bench.reads;

import io.seekwell.bench.Options;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

  @Test
  void takesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes the profile's program, besides the store's options.
    Options.parse(
        "Benchmark",
        Benchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server",
          "t",
          "--scale",
          "quick",
          "--iterations",
          "1",
          "--warmup",
          "0",
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
