package io.seekwell.bench.reads;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.bench.Options;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {

  private static final Options OPTIONS =
      Options.parse("Benchmark", Benchmark.OPTIONS, new String[0]);

  @Test
  void theHeadingNamesThePeersEachSeekwellPathIsComparedWith() {
    String tables = Report.tables(Map.of(), OPTIONS, Dataset.Scale.QUICK, 1);

    assertTrue(
        tables.contains(
            "in its stack (seekwell: aal; seekwell-iceberg: iceberg-default; seekwell-s3a:"
                + " s3a-analytics, s3a-classic and s3a-classic-orc-tuned) in the same workload."),
        tables);
  }

  @Test
  void eachConnectorIsTabledAgainstItsStacksDefaultStream() {
    Map<String, List<Sample>> byPath = new LinkedHashMap<>();
    byPath.put("seekwell-s3a", List.of(taking(1)));
    byPath.put("s3a-analytics", List.of(taking(2)));
    byPath.put("seekwell-iceberg", List.of(taking(3)));
    byPath.put("iceberg-default", List.of(taking(1.5)));

    String tables = Report.tables(Map.of(Workload.W5, byPath), OPTIONS, Dataset.Scale.QUICK, 1);

    String workload = "W5 " + Workload.W5.description;
    assertTrue(
        tables.contains(
            "| "
                + workload
                + " | iceberg-default | 1.50 | seekwell-iceberg | 3.00 | 2.00 |\n| "
                + workload
                + " | s3a-analytics | 2.00 | seekwell-s3a | 1.00 | 0.50 |\n"),
        tables);
  }

  @Test
  void theReproduceLineHoldsTheIterationsAndWarmUpsAFullRunWasGiven() {
    Options given =
        Options.parse(
            "Benchmark",
            Benchmark.OPTIONS,
            new String[] {
              "--profile",
              "s3",
              "--iterations",
              "5",
              "--iterations",
              "3",
              "--warmup",
              "2",
              "--paths",
              "seekwell,aal"
            });

    String full = Report.tables(Map.of(), given, Dataset.Scale.FULL, 3);
    String quick = Report.tables(Map.of(), given, Dataset.Scale.QUICK, 3);

    assertTrue(
        full.contains(
            "Reproduce: `./scripts/bench.sh --profile s3 --paths seekwell,aal --iterations 3"
                + " --warmup 2`"),
        full);
    assertTrue(
        quick.contains("Reproduce: `./scripts/bench.sh --quick --profile s3 --paths seekwell,aal`"),
        quick);
  }

  private static Sample taking(double seconds) {
    return new Sample(seconds, 1, 10, 0, 1 << 20, 1 << 26, 7, -1);
  }
}
