package io.seekwell.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Markdown table: a header row, the separator and one line per row, each cell as given. The one
 * table writer of the benchmark reports. Not thread-safe: one report builds it.
 */
public final class MarkdownTable {

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  /** A table with these column headings. */
  public MarkdownTable(String... header) {
    this(List.of(header));
  }

  /** A table with these column headings. */
  public MarkdownTable(List<String> header) {
    if (header.isEmpty()) {
      throw new IllegalArgumentException("A table needs a column");
    }
    this.header = List.copyOf(header);
  }

  /** Adds a row of {@code cells}, one per column. */
  public MarkdownTable row(Object... cells) {
    return row(Arrays.stream(cells).map(String::valueOf).toList());
  }

  /** Adds a row of {@code cells}, one per column. */
  public MarkdownTable row(List<String> cells) {
    if (cells.size() != header.size()) {
      throw new IllegalArgumentException(
          "A row of " + cells.size() + " cells in a table of " + header.size() + " columns");
    }
    rows.add(List.copyOf(cells));
    return this;
  }

  /** Whether no row was added. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The table in Markdown, each line ending in a newline. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    out.append(line(header)).append('\n');
    out.append('|').append("---|".repeat(header.size())).append('\n');
    rows.forEach(row -> out.append(line(row)).append('\n'));
    return out.toString();
  }

  /** One line of a table: {@code cells} between bars, with no newline. */
  public static String line(List<String> cells) {
    return "| " + String.join(" | ", cells) + " |";
  }
}
