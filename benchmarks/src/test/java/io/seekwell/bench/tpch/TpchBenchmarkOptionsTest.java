package io.seekwell.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.bench.BenchScript;
import io.seekwell.bench.Options;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TpchBenchmarkOptionsTest {

  @Test
  void takesEveryOptionTheScriptsPassIt() throws IOException {
    BenchScript.assertTakesEveryInvocation(TpchBenchmark.class, TpchBenchmark.OPTIONS);
  }

  @Test
  void theReproduceLineKeepsWhatChangesTheRunAndWhereItsReportGoes() {
    String[] args = {
      "--toxiproxy-server", "127.0.0.1:8474",
      "--rounds", "1",
      "--executor-memory-mb", "1024",
      "--data", "/tmp/tpch",
      "--report", "docs/benchmarks-tpch-64mb.md"
    };
    Options options = Options.parse("TpchBenchmark", TpchBenchmark.OPTIONS, args);

    assertEquals(
        "./scripts/bench.sh --profile tpch --rounds 1 --executor-memory-mb 1024"
            + " --report docs/benchmarks-tpch-64mb.md",
        TpchBenchmark.reproduce(options, args));
  }
}
