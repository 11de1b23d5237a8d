package io.seekwell.bench.scripts;

import io.seekwell.bench.Options;
import io.seekwell.bench.faults.FaultBenchmark;
import io.seekwell.bench.planning.PlanningBenchmark;
import io.seekwell.bench.rate.RequestRateBenchmark;
import io.seekwell.bench.reads.Benchmark;
import org.junit.jupiter.api.Test;

/** What scripts/bench.sh relies on of the profiles' programs. */
class BenchShTest {

  @Test
  void everyBenchmarkTakesTheOptionsBenchShPassesIt() {
    // What scripts/bench.sh --quick passes each profile's program, besides the store's options.
    Options.parse(
        "Benchmark",
        Benchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server", "t", "--scale", "quick", "--iterations", "1", "--warmup", "0",
          "--smoke", "true", "--report", "r.md", "--paths", "seekwell", "--workloads", "W1"
        });
    Options.parse(
        "FaultBenchmark",
        FaultBenchmark.OPTIONS,
        new String[] {
          "--toxiproxy-server", "t", "--scale", "quick", "--iterations", "1", "--faults", "cut-rst",
          "--fractions", "0.25", "--deadline", "120", "--smoke", "true", "--report", "r.md",
          "--paths", "seekwell", "--workloads", "W1"
        });
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
    Options.parse(
        "RequestRateBenchmark",
        RequestRateBenchmark.OPTIONS,
        new String[] {
          "--threads", "16", "--seconds", "2", "--objects", "8", "--object-mb", "16",
          "--memory-mb", "8", "--throttle", "100", "--append", "true", "--smoke", "true",
          "--report", "r.md"
        });
  }
}
