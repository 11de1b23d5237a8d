package io.seekwell.bench.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.bench.planning.PlanningBenchmark.Planned;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanningReportTest {

  private static Planned planned(double cpu, double compilers) {
    return new Planned(1, cpu, compilers, 1_000, 1 << 20, 1_000);
  }

  @Test
  void cpuWithoutTheCompilersIsTheMedianOfEachPlanningsDifference() {
    assertEquals(
        "1.50",
        PlanningReport.withoutCompilers(
            List.of(planned(4.0, 3.0), planned(5.0, 3.5), planned(6.0, 3.0))));
  }

  @Test
  void cpuWithoutTheCompilersIsNotGivenWhereTheirsCouldNotBeRead() {
    assertEquals(
        "–", PlanningReport.withoutCompilers(List.of(planned(4.0, 3.0), planned(5.0, Double.NaN))));
  }
}
