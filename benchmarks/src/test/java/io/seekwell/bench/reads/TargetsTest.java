package io.seekwell.bench.reads;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetsTest {

  private static final String DISK_TARGET =
      "Disk tier on and cold, every workload ≤ 1.03 × the same path without it";

  @Test
  void aColdDiskTierMoreThanThreePercentSlowerInOneWorkloadMissesItsTarget() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W1, paths("seekwell-iceberg", 1.00, "seekwell-iceberg@disk", 1.02));
    results.put(Workload.W3, paths("seekwell-iceberg", 4.00, "seekwell-iceberg@disk", 4.20));

    String report = Targets.markdown(results, 1, 1, 100, false);

    assertTrue(
        report.contains(DISK_TARGET + ": **missed** in W3 seekwell-iceberg@disk (1.05×)"), report);
    assertTrue(report.contains("W1 seekwell-iceberg@disk (1.02×)"), report);
  }

  @Test
  void aColdDiskTierWithinThreePercentEverywhereMeetsItsTarget() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W5, paths("seekwell-iceberg", 2.00, "seekwell-iceberg@disk", 2.06));

    assertTrue(Targets.markdown(results, 1, 1, 100, false).contains(DISK_TARGET + ": **met**"));
  }

  @Test
  void aRunWithoutADiskPathSaysTheTargetWasNotMeasured() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W5, paths("seekwell-iceberg", 2.00));

    assertTrue(
        Targets.markdown(results, 1, 1, 100, false).contains(DISK_TARGET + ": not measured"));
  }

  @Test
  void aSeekwellPathUsingMoreCpuThanItsStacksMostFrugalPeerMissesTheCpuTarget() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(
        Workload.W5,
        cpu("aal", 0.30, "s3a-classic", 0.40, "seekwell-s3a", 0.60, "seekwell@no-latency", 9.0));
    results.put(Workload.W6, cpu("aal", 0.20, "iceberg-default", 0.50, "seekwell-iceberg", 0.45));

    String report = Targets.markdown(results, 1, 1, 100, false);

    assertTrue(
        report.contains(
            "Every workload, each Seekwell path's client CPU ≤ the most frugal peer's of its stack:"
                + " **missed** in W5 seekwell-s3a (1.50×)\n"),
        report);
  }

  @Test
  void aSeekwellPathAtItsStacksMostFrugalPeerMeetsTheCpuTarget() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W6, cpu("aal", 0.20, "iceberg-default", 0.50, "seekwell-iceberg", 0.50));

    assertTrue(
        Targets.markdown(results, 1, 1, 100, false)
            .contains("client CPU ≤ the most frugal peer's of its stack: **met**"));
  }

  @Test
  void w9ThroughS3aIsJudgedAgainstReadingItsFilesOneAtATime() {
    // 100 files of 90 MB in all: 100 × 25 ms first bytes plus 1 s of body, a 3.5 s floor.
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(
        Workload.W9,
        task(
            "seekwell",
            0.40,
            "seekwell@no-latency",
            0.35,
            "seekwell-s3a",
            4.2,
            "seekwell-s3a@no-latency",
            0.35));

    String report = Targets.markdown(results, 1, 1, 100, false);

    assertTrue(
        report.contains(
            "- W9 seekwell-s3a ≤ 1.3 × reading its files one at a time (S3A opens a task's files in"
                + " turn and cannot be told them first; the floor is its 100 files' 25 ms first"
                + " bytes in turn plus its bytes at 90 MB/s: 3.50 s): 1.20 × — **met**"),
        report);
    assertTrue(
        report.contains("- W9 seekwell-s3a against its own time without the latency: 12.00 ×"),
        report);
    assertFalse(report.contains("seekwell-s3a ≤ 1.3 × its own time without the latency"), report);
    // A path that can be told the task's files is judged against its own time without latency.
    assertTrue(
        report.contains(
            "- W9 seekwell ≤ 1.3 × its own time without the latency (through the same proxy, with"
                + " no latency or bandwidth limit): 1.14 × — **met**"),
        report);
  }

  @Test
  void w9ThroughS3aSlowerThanItsFloorAllowsMissesWithoutANoLatencyRun() {
    Map<Workload, Map<String, List<Sample>>> results = new LinkedHashMap<>();
    results.put(Workload.W9, task("seekwell-s3a", 5.0));

    assertTrue(
        Targets.markdown(results, 1, 1, 100, false).contains("3.50 s): 1.43 × — **missed**"));
  }

  /** Alternating path name and seconds of a task group of 100 GETs and 90 MB. */
  private static Map<String, List<Sample>> task(Object... values) {
    Map<String, List<Sample>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      double seconds = ((Number) values[i + 1]).doubleValue();
      byPath.put(
          (String) values[i], List.of(new Sample(seconds, 1, 100, 0, 90_000_000, 1 << 26, 7, -1)));
    }
    return byPath;
  }

  /** Alternating path name and client CPU seconds, each taking one second. */
  private static Map<String, List<Sample>> cpu(Object... values) {
    Map<String, List<Sample>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      double cpu = ((Number) values[i + 1]).doubleValue();
      byPath.put((String) values[i], List.of(new Sample(1, cpu, 10, 0, 1 << 20, 1 << 26, 7, -1)));
    }
    return byPath;
  }

  /** Alternating path name and seconds. */
  private static Map<String, List<Sample>> paths(Object... values) {
    Map<String, List<Sample>> byPath = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      double seconds = ((Number) values[i + 1]).doubleValue();
      byPath.put(
          (String) values[i], List.of(new Sample(seconds, 1, 10, 0, 1 << 20, 1 << 26, 7, -1)));
    }
    return byPath;
  }
}
