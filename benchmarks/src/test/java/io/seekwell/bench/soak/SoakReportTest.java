package io.seekwell.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.bench.ProcessResources;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.soak.SoakSample.Resource;
import io.seekwell.common.metrics.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakReportTest {

  private static final long MB = 1_000_000;
  private static final S3SeekableInputStreamConfiguration SEEKWELL =
      SeekwellSettings.configuration(
          Map.of(
              "physicalio.max.memory.limit", "256MB", "physicalio.disk.cache.max.size", "512MB"));
  private static final SoakReport.Settings SETTINGS =
      new SoakReport.Settings(
          Map.of(),
          10,
          2,
          8,
          0.02,
          8,
          1 << 20,
          SEEKWELL.physicalIO().maxMemoryLimit(),
          SoakBenchmark.diskBound(SEEKWELL),
          75);
  private static final SoakRun.Tally TALLY = new SoakRun.Tally(100, 0, 0, 3, 5, 60, 0);

  /** One sample: the given heap, threads and caches, the rest constant. */
  private static SoakSample sample(
      double minute, boolean idle, long heapMb, int threads, long diskMb, long cachedMb) {
    return new SoakSample(
        minute,
        idle,
        new ProcessResources(heapMb * MB, 20 * MB, 3_000 * MB, threads, 200, cpuNanosAt(minute)),
        30,
        diskMb * MB,
        cachedMb * MB,
        (long) minute * 10,
        0,
        0,
        (long) minute * 100,
        (long) (minute * 100 * MB),
        (long) (minute * 90 * MB),
        prefetched((long) (minute * 50 * MB), (long) (minute * 5 * MB)));
  }

  /**
   * The JVM's CPU at {@code minute}: 7 s at the start, then 40 s a minute, but 100 s a minute from
   * the last reading sample (minute 11) to the end.
   */
  private static long cpuNanosAt(double minute) {
    double seconds = 7 + 40 * Math.min(minute, 11) + 100 * Math.max(0, minute - 11);
    return (long) (seconds * 1e9);
  }

  /** The counters with {@code bytes} prefetched, {@code unused} of them dropped unread. */
  private static long[] prefetched(long bytes, long unused) {
    long[] counters = new long[SoakRun.COUNTERS.size()];
    counters[SoakRun.COUNTERS.indexOf(Metric.PREFETCHED_BYTES)] = bytes;
    counters[SoakRun.COUNTERS.indexOf(Metric.PREFETCHED_BYTES_UNUSED)] = unused;
    return counters;
  }

  /**
   * A run of ten minutes read: idle at minute 2 with {@code idleBefore} threads, reading samples
   * whose threads and caches climb over their bounds' range as given, idle at the end with {@code
   * idleAfter} threads.
   */
  private static List<SoakSample> run(int idleBefore, int idleAfter, long cachedPeakMb) {
    List<SoakSample> samples = new ArrayList<>();
    samples.add(sample(0, false, 100, 15, 0, 0));
    samples.add(sample(1, false, 1_000, 300, 100, 200));
    samples.add(sample(2, false, 1_000, 320, 110, 220));
    samples.add(sample(3.3, true, 1_000, idleBefore, 110, 50));
    for (int minute = 4; minute <= 11; minute++) {
      // Threads climb with the load; the caches fill towards their bounds as scans come and go.
      samples.add(
          sample(
              minute,
              false,
              1_000,
              300 + 20 * minute,
              30 * minute,
              minute == 11 ? cachedPeakMb : 20 * minute));
    }
    samples.add(sample(12.5, true, 1_000, idleAfter, 400, 250));
    return samples;
  }

  @Test
  void threadsThatClimbWhileReadingButComeBackWhenIdlePass() {
    SoakReport report = new SoakReport(run(150, 160, 268), TALLY, List.of(), SETTINGS);

    assertEquals(List.of(), report.broken());
    String threads = report.growth().get(Resource.THREADS);
    assertTrue(threads.startsWith("flat threads: idle 150 at the warm-up's end, 160"), threads);
    assertTrue(threads.contains("320-520 while reading"), threads);
    assertTrue(
        report.growth().get(Resource.DISK).startsWith("flat disk tier MB: 0-400"),
        report.growth().get(Resource.DISK));
  }

  @Test
  void theReportSaysWhatWasAbandonedAndWhatPrefetchWasNotUsed() {
    SoakReport report = new SoakReport(run(150, 150, 268), TALLY, List.of(), SETTINGS);

    assertEquals(
        "Bytes: the GET responses carried 1250 MB, of which 1125 MB reached the clients and 125 MB"
            + " (10.0 %) were abandoned: cut short by the faults, stall cuts, hedges' losers,"
            + " streams closed early and proxy restarts (every path's; the latency proxy keeps"
            + " them). Seekwell's core and Iceberg"
            + " paths asked for 625 MB ahead of reads and dropped 63 MB of it unread (10.0 %;"
            + " `PREFETCHED_BYTES`, `PREFETCHED_BYTES_UNUSED`).",
        report.bytes());
    assertTrue(report.markdown().contains("| 125 | 100.0 |\n"), report.markdown());
    assertTrue(report.markdown().contains(" | 40.0 |\n"), report.markdown());
  }

  @Test
  void theReportGivesTheJvmsCpuAMinuteAndARead() {
    SoakReport report = new SoakReport(run(150, 150, 268), TALLY, List.of(), SETTINGS);

    assertEquals(
        "CPU: 590 s over 12.5 wall-clock minutes (47.2 s a minute), 5900.0 ms a read checked (the"
            + " benchmark JVM's every thread; no target).",
        report.cpu());
    assertTrue(report.markdown().contains("| 0.0 | 0 | 0 | 0 | 0 |"), report.markdown());
    assertTrue(report.markdown().contains(" | 0 | – |\n"), report.markdown());
  }

  @Test
  void threadsLeftBehindWhenIdleFail() {
    SoakReport report = new SoakReport(run(150, 190, 268), TALLY, List.of(), SETTINGS);

    assertEquals(1, report.broken().size(), report.broken().toString());
    assertTrue(report.broken().get(0).startsWith("grew threads"), report.broken().toString());
  }

  @Test
  void aCacheOverItsBoundFails() {
    SoakReport report = new SoakReport(run(150, 150, 269), TALLY, List.of(), SETTINGS);

    assertEquals(
        List.of(
            "grew cached MB: 0-269 over the run, its bound 268 (256 MiB; a cache fills and empties"
                + " within it)"),
        report.broken());
  }

  @Test
  void aDiskTierOverItsBoundFails() {
    List<SoakSample> samples = new ArrayList<>(run(150, 150, 268));
    samples.add(samples.size() - 1, sample(11.5, false, 1_000, 500, 420, 100));

    List<String> broken = new SoakReport(samples, TALLY, List.of(), SETTINGS).broken();

    assertEquals(1, broken.size(), broken.toString());
    assertTrue(
        broken.get(0).startsWith("grew disk tier MB: 0-420 over the run, its bound 403 (384 MiB"),
        broken.toString());
  }

  @Test
  void heapRisingAfterTheWarmupFails() {
    List<SoakSample> samples = new ArrayList<>(run(150, 150, 268));
    samples.replaceAll(
        sample ->
            sample.idle() || sample.minutes() < 2
                ? sample
                : sample(
                    sample.minutes(),
                    false,
                    1_000 + (long) (sample.minutes() * 30),
                    sample.process().threads(),
                    sample.diskBytes() / MB,
                    sample.cachedBytes() / MB));

    List<String> broken = new SoakReport(samples, TALLY, List.of(), SETTINGS).broken();

    assertEquals(1, broken.size(), broken.toString());
    assertTrue(
        broken.get(0).startsWith("grew heap MB: +270.0 over the 9.0 wall-clock minutes"),
        broken.toString());
  }

  @Test
  void aRunWithoutItsIdleSamplesIsNotJudged() {
    List<SoakSample> samples =
        run(150, 150, 268).stream().filter(sample -> !sample.idle()).toList();

    assertEquals(
        List.of("0 idle samples, not 2 (at the warm-up's end and at the end)"),
        new SoakReport(samples, TALLY, List.of(), SETTINGS).broken());
  }
}
