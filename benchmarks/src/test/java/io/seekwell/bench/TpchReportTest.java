package io.seekwell.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpchReportTest {

  private static final List<String> QUERIES = List.of("q01", "q06");
  private static final Options FULL_RUN =
      Options.parse("TpchBenchmark", Set.of("smoke"), new String[0]);

  @Test
  void pathsThatAnswerAlikeHaveNoProblem() {
    TpchReport report =
        new TpchReport(
            "setup",
            FULL_RUN,
            QUERIES,
            List.of(path("iceberg-default", 10, 100, 1.0), path("seekwell-iceberg", 10, 100, 1.0)));

    assertEquals(List.of(), report.answerProblems());
    assertTrue(report.markdown().contains("Every path answered each of the 2 queries alike"));
  }

  @Test
  void aQueryAnsweredDifferentlyByOnePathIsAProblemThatNamesIt() {
    TpchPathRuns wrong =
        new TpchPathRuns(
            "seekwell-s3a",
            List.of(run("q01", 4, "aaaa", 1000, 5), run("q06", 1, "ffff", 1000, 5)),
            List.of());
    TpchReport report =
        new TpchReport(
            "setup", FULL_RUN, QUERIES, List.of(path("s3a-classic", 10, 100, 1.0), wrong));

    List<String> problems = report.answerProblems();

    assertEquals(1, problems.size(), problems::toString);
    assertTrue(problems.get(0).startsWith("q06 is answered differently"), problems::toString);
    assertTrue(problems.get(0).contains("[seekwell-s3a]"), problems::toString);
    assertTrue(report.markdown().contains("**The paths' answers differ: the run failed.**"));
  }

  @Test
  void q01WithoutItsFourGroupsMeansTheDataIsNotThere() {
    TpchPathRuns empty =
        new TpchPathRuns(
            "iceberg-default",
            List.of(run("q01", 0, "0000", 10, 1), run("q06", 1, "dddd", 10, 1)),
            List.of());

    List<String> problems =
        new TpchReport("setup", FULL_RUN, QUERIES, List.of(empty)).answerProblems();

    assertEquals(1, problems.size(), problems::toString);
    assertTrue(problems.get(0).contains("not its 4 groups"), problems::toString);
  }

  @Test
  void targetsNameTheQueriesSeekwellMissesThemOn() {
    // Seekwell: q01 1.5 × its floor and 1.5 × the fastest peer's time, more GETs than AAL.
    TpchPathRuns seekwell =
        new TpchPathRuns(
            "seekwell-iceberg",
            List.of(run("q01", 4, "aaaa", 3000, 50), run("q06", 1, "dddd", 1000, 5)),
            List.of(run("q01", 4, "aaaa", 2000, 0), run("q06", 1, "dddd", 1000, 0)));
    TpchReport report =
        new TpchReport(
            "setup", FULL_RUN, QUERIES, List.of(path("iceberg-aal", 2000, 10, 1.0), seekwell));

    String markdown = report.markdown();

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
            "- GETs per query at most iceberg-aal's: **missed** on 1 of 2 queries: q01 5.00×"),
        markdown);
  }

  @Test
  void aSmokeRunJudgesNoTarget() {
    Options smoke =
        Options.parse("TpchBenchmark", Set.of("smoke"), new String[] {"--smoke", "true"});
    String markdown =
        new TpchReport("setup", smoke, QUERIES, List.of(path("seekwell-s3a", 10, 10, 1.0)))
            .markdown();

    assertTrue(markdown.contains(Options.SMOKE_NOTE), markdown);
    assertTrue(!markdown.contains("**met**") && !markdown.contains("**missed**"), markdown);
  }

  @Test
  void queriesAreNumbersAndRangesOfOneToTwentyTwo() {
    assertEquals(
        List.of("q01", "q06", "q10", "q11", "q12"), TpchApplication.queryNames("1,6,10-12"));
    assertThrows(IllegalArgumentException.class, () -> TpchApplication.queryNames("0-3"));
    assertThrows(IllegalArgumentException.class, () -> TpchApplication.queryNames("21-23"));
  }

  /**
   * A path whose every query takes {@code millis} and {@code gets}, its floor {@code floorRatio}
   * less.
   */
  private static TpchPathRuns path(String name, long millis, long gets, double floorRatio) {
    List<TpchQueryRun> emulated = new ArrayList<>();
    List<TpchQueryRun> floor = new ArrayList<>();
    emulated.add(run("q01", 4, "aaaa", millis, gets));
    emulated.add(run("q06", 1, "dddd", millis, gets));
    floor.add(run("q01", 4, "aaaa", (long) (millis / floorRatio), 0));
    floor.add(run("q06", 1, "dddd", (long) (millis / floorRatio), 0));
    return new TpchPathRuns(name, emulated, floor);
  }

  private static TpchQueryRun run(String query, long rows, String digest, long millis, long gets) {
    return new TpchQueryRun(1, query, millis, rows, digest, millis / 2, millis, gets, gets * 1000);
  }
}
