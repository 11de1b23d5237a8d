package io.seekwell.bench.report;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * When and at which code a report was made, for the first line of every report (and of a section
 * run in a JVM of its own, such as the request-rate report's throttled run): "Run on 2026-11-30
 * 13:45 UTC, the code of 1a2b3c4: 2 cores, Java 17.0.15". The revision comes from the system
 * property {@value #REVISION_PROPERTY}, which {@code scripts/bench.sh} sets from {@code git
 * describe --always --dirty} (a {@code -dirty} suffix: the working tree had changes; "unknown"
 * where git could not tell); a benchmark started without it says its revision is unknown.
 */
public final class RunHeader {

  /** The system property naming the revision the benchmark's classes were built from. */
  public static final String REVISION_PROPERTY = "seekwell.bench.revision";

  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT);

  private RunHeader() {}

  /** "Run on DATE TIME UTC, the code of REVISION: N cores, Java VERSION", now, on this JVM. */
  public static String runOn() {
    return runOn(
        Clock.systemUTC(),
        System.getProperty(REVISION_PROPERTY, ""),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));
  }

  static String runOn(Clock clock, String revision, int cores, String javaVersion) {
    String code = revision.isBlank() ? "an unknown revision (none given)" : revision.strip();
    return String.format(
        Locale.ROOT,
        "Run on %s, the code of %s: %d cores, Java %s",
        MINUTE.format(ZonedDateTime.now(clock.withZone(ZoneOffset.UTC))),
        code,
        cores,
        javaVersion);
  }
}
