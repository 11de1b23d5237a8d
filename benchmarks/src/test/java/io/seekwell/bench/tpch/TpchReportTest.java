package io.seekwell.bench.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.bench.Options;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpchReportTest {

  private static final List<String> QUERIES = List.of("q01", "q06");
  private static final Options FULL_RUN =
      Options.parse("TpchBenchmark", Set.of("smoke"), new String[0]);

  @Test
  void pathsThatAnswerAlikeHaveNoProblem() {
    List<TpchPathRuns> paths =
        List.of(path("iceberg-default", 10, 100), path("seekwell-iceberg", 10, 100));

    assertEquals(List.of(), new TpchAnswers(QUERIES, paths).problems());
    assertTrue(
        new TpchReport("setup", FULL_RUN, QUERIES, paths)
            .markdown()
            .contains("The 2 paths answered each of the 2 queries alike"));
  }

  @Test
  void aQueryAnsweredDifferentlyByOnePathIsAProblemThatNamesIt() {
    TpchPathRuns wrong =
        new TpchPathRuns("seekwell-s3a", queries(4, "aaaa", "ffff", 1000, 5), List.of());
    List<TpchPathRuns> paths = List.of(path("s3a-classic", 10, 100), wrong);

    List<String> problems = new TpchAnswers(QUERIES, paths).problems();

    assertEquals(1, problems.size(), problems::toString);
    assertTrue(problems.get(0).startsWith("q06 is answered differently"), problems::toString);
    assertTrue(problems.get(0).contains("[seekwell-s3a]"), problems::toString);
    assertTrue(
        new TpchReport("setup", FULL_RUN, QUERIES, paths)
            .markdown()
            .contains("**The paths' answers differ: the run failed.**"));
  }

  @Test
  void q01WithoutItsFourGroupsMeansTheDataIsNotThere() {
    TpchPathRuns empty =
        new TpchPathRuns("iceberg-default", queries(0, "0000", "dddd", 10, 1), List.of());

    List<String> problems = new TpchAnswers(QUERIES, List.of(empty)).problems();

    assertEquals(1, problems.size(), problems::toString);
    assertTrue(problems.get(0).contains("not its 4 groups"), problems::toString);
  }

  @Test
  void targetsNameTheQueriesSeekwellMissesThemOnAgainstThePeersOfItsFormat() {
    // Seekwell: q01 1.5 × its floor and the Iceberg peer's time, CPU and 5 × AAL's GETs; q06 fine.
    TpchPathRuns seekwell =
        new TpchPathRuns(
            "seekwell-iceberg",
            List.of(run("q01", 4, "aaaa", 3000, 50), run("q06", 1, "dddd", 1000, 5)),
            List.of(run("q01", 4, "aaaa", 2000, 0), run("q06", 1, "dddd", 1000, 0)));
    // An S3A path twice as fast is no peer of an Iceberg path.
    List<TpchPathRuns> paths =
        List.of(path("iceberg-aal", 2000, 10), path("s3a-classic", 100, 1), seekwell);

    String markdown = new TpchReport("setup", FULL_RUN, QUERIES, paths).markdown();

    assertTrue(
        markdown.contains(
            "- every query within 1.1 × its floor: **missed** on 1 of 2 queries: q01 1.50×"),
        markdown);
    assertTrue(
        markdown.contains("- in total within 1.05 × the floor: **missed** (1.33×)"), markdown);
    assertTrue(
        markdown.contains(
            "- no query slower than the fastest peer by more than 5 %: **missed** on 1 of 2"
                + " queries: q01 1.50×"),
        markdown);
    assertTrue(
        markdown.contains(
            "- executor CPU per query at most the most frugal peer's: **missed** on 1 of 2"
                + " queries: q01 1.50×"),
        markdown);
    assertTrue(
        markdown.contains(
            "- GETs per query at most iceberg-aal's: **missed** on 1 of 2 queries: q01 5.00×"),
        markdown);
  }

  @Test
  void aLineOfTenFieldsParsesWithTheExecutorsGcTime() {
    TpchQueryRun run = TpchQueryRun.parse("2\tq06\t1500\t1\tabcd\t300\t2400\t120\t7\t9000");

    assertEquals(new TpchQueryRun(2, "q06", 1500, 1, "abcd", 300, 2400, 120, 7, 9000), run);
    assertThrows(
        IllegalArgumentException.class,
        () -> TpchQueryRun.parse("2\tq06\t1500\t1\tabcd\t300\t2400\t7\t9000"));
  }

  @Test
  void totalsAndTheFloorShowExecutorCpuAndGcTime() {
    // Each query: 2 s, so 2 s of executor CPU and 0.2 s of GC, through S3 and on the floor.
    String markdown =
        new TpchReport("setup", FULL_RUN, QUERIES, List.of(path("iceberg-aal", 2000, 10)))
            .markdown();

    assertTrue(
        markdown.contains(
            "| path | time s | floor s | × floor | first round s | GETs | MB | driver CPU s |"
                + " executor CPU s | executor GC s |"),
        markdown);
    assertTrue(markdown.contains("| 2.00 | 4.00 | 0.40 |"), markdown);
    assertTrue(markdown.contains("## The floor"), markdown);
    assertTrue(markdown.contains("| path | floor s | executor CPU s | executor GC s |"), markdown);
    assertTrue(markdown.contains("| iceberg-aal | 4.00 | 4.00 | 0.40 |"), markdown);
    assertTrue(markdown.contains("## Executor GC per query"), markdown);
  }

  @Test
  void theExecutorsMemoryIsAtLeastWhatSparkStarts() {
    Set<String> known = Set.of("executor-memory-mb");
    assertEquals(
        2048, TpchBenchmark.executorMemoryMb(Options.parse("TpchBenchmark", known, new String[0])));
    assertEquals(
        1024,
        TpchBenchmark.executorMemoryMb(
            Options.parse("TpchBenchmark", known, new String[] {"--executor-memory-mb", "1024"})));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            TpchBenchmark.executorMemoryMb(
                Options.parse(
                    "TpchBenchmark", known, new String[] {"--executor-memory-mb", "256"})));
  }

  @Test
  void aTargetWithNothingToJudgeItBySaysSo() {
    TpchPathRuns alone =
        new TpchPathRuns("seekwell-s3a", queries(4, "aaaa", "dddd", 10, 1), List.of());

    String markdown = new TpchReport("setup", FULL_RUN, QUERIES, List.of(alone)).markdown();

    assertTrue(markdown.contains("not judged, no floor ran"), markdown);
    assertTrue(markdown.contains("against the peers of its format: not judged"), markdown);
    assertTrue(markdown.contains("at most AAL's: not judged"), markdown);
  }

  @Test
  void aSmokeRunJudgesNoTarget() {
    Options smoke =
        Options.parse("TpchBenchmark", Set.of("smoke"), new String[] {"--smoke", "true"});
    String markdown =
        new TpchReport("setup", smoke, QUERIES, List.of(path("seekwell-s3a", 10, 10))).markdown();

    assertTrue(markdown.contains(Options.SMOKE_NOTE), markdown);
    assertFalse(markdown.contains("**met**") || markdown.contains("**missed**"), markdown);
  }

  @Test
  void queriesAreNumbersAndRangesOfOneToTwentyTwo() {
    assertEquals(
        List.of("q01", "q06", "q10", "q11", "q12"), TpchApplication.queryNames("1,6,10-12"));
    for (String bad : List.of("0-3", "21-23", "1-", "x", "3-1", "1-2-3")) {
      assertThrows(
          IllegalArgumentException.class,
          () -> TpchApplication.queryNames(bad),
          "--queries " + bad);
    }
  }

  /** A path whose every query takes {@code millis} and {@code gets}, and as long on the floor. */
  private static TpchPathRuns path(String name, long millis, long gets) {
    return new TpchPathRuns(
        name, queries(4, "aaaa", "dddd", millis, gets), queries(4, "aaaa", "dddd", millis, 0));
  }

  /** Q01 with {@code q01Rows} and Q06 with one row, each taking {@code millis} and {@code gets}. */
  private static List<TpchQueryRun> queries(
      long q01Rows, String q01Digest, String q06Digest, long millis, long gets) {
    return List.of(
        run("q01", q01Rows, q01Digest, millis, gets), run("q06", 1, q06Digest, millis, gets));
  }

  private static TpchQueryRun run(String query, long rows, String digest, long millis, long gets) {
    return new TpchQueryRun(
        1, query, millis, rows, digest, millis / 2, millis, millis / 10, gets, gets * 1000);
  }
}
