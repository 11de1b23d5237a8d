package io.seekwell.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fault benchmark's section of a report, between two markers: the fault benchmark replaces it,
 * and the main benchmark, which rewrites the whole report, keeps it.
 */
public final class FaultSection {

  static final String START_MARKER = "<!-- fault-benchmark:start -->";
  static final String END_MARKER = "<!-- fault-benchmark:end -->";

  private FaultSection() {}

  /** {@code report} followed by the fault section {@code out} has now, if any. */
  public static String keeping(Path out, String report) throws IOException {
    String existing = Files.exists(out) ? Files.readString(out) : "";
    int start = existing.indexOf(START_MARKER);
    int end = existing.indexOf(END_MARKER);
    return start >= 0 && end > start
        ? report + "\n" + existing.substring(start, end + END_MARKER.length()) + "\n"
        : report;
  }

  /** Writes {@code tables} between the markers of {@code out}, or appends them with markers. */
  public static void write(Path out, String tables) throws IOException {
    String section = START_MARKER + "\n" + tables + END_MARKER + "\n";
    String existing = Files.exists(out) ? Files.readString(out) : "";
    int start = existing.indexOf(START_MARKER);
    int end = existing.indexOf(END_MARKER);
    String updated =
        start >= 0 && end > start
            ? existing.substring(0, start)
                + section
                + existing.substring(end + END_MARKER.length() + 1)
            : existing + (existing.isEmpty() || existing.endsWith("\n\n") ? "" : "\n") + section;
    Files.writeString(out, updated);
  }
}
