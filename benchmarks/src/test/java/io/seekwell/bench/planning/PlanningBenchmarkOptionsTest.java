package io.seekwell.bench.planning;

import io.seekwell.bench.Options;
import org.junit.jupiter.api.Test;

class PlanningBenchmarkOptionsTest {

  @Test
  void takesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes the profile's program, besides the store's options.
    Options.parse(
        "PlanningBenchmark",
        PlanningBenchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server",
          "t",
          "--snapshots",
          "20",
          "--iterations",
          "1",
          "--smoke",
          "true",
          "--report",
          "r.md",
          "--planner",
          "single",
          "--append",
          "true"
        });
  }
}
