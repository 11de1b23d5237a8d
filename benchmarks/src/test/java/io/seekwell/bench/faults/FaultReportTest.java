package io.seekwell.bench.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.bench.faults.FaultBenchmark.Outcome;
import io.seekwell.bench.faults.FaultBenchmark.Run;
import io.seekwell.bench.workloads.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultReportTest {

  @Test
  void aCellGivesTheMedianAndTheRangeOfTheRightIterations() {
    List<Run> runs = List.of(right(1.10, 0.8), right(5.50, 0.6), right(1.30, 0.9));

    assertEquals("1.30 (1.10–5.50) s (CPU 0.80 s) ✓✓✓", FaultReport.cell(runs));
  }

  @Test
  void aCellMarksTheIterationsThatBeganWhileAnAbandonedOnesConnectionsStillCame() {
    List<Run> runs =
        List.of(
            new Run(Outcome.RIGHT, sample(2.00, 1.0), null, true),
            new Run(Outcome.STILL_RUNNING, null, null, false),
            new Run(Outcome.FAILED, null, "stalled", true));

    assertEquals("2.00 s (CPU 1.00 s) ✓†TF†", FaultReport.cell(runs));
  }

  @Test
  void aCellWithNoRightIterationGivesOnlyHowTheyEnded() {
    List<Run> runs =
        List.of(
            new Run(Outcome.STILL_RUNNING, null, null, false),
            new Run(Outcome.WRONG, sample(1.0, 1.0), null, false));

    assertEquals("– T✗", FaultReport.cell(runs));
  }

  private static Run right(double seconds, double cpuSeconds) {
    return new Run(Outcome.RIGHT, sample(seconds, cpuSeconds), null, false);
  }

  private static Sample sample(double seconds, double cpuSeconds) {
    return new Sample(seconds, cpuSeconds, 10, 1, 1000, 1 << 20, 42, 0);
  }
}
