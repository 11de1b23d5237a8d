package io.seekwell.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownTableTest {

  @Test
  void writesTheHeaderTheSeparatorAndARowPerLine() {
    MarkdownTable table = new MarkdownTable("path", "GETs", "MB").row("seekwell", 12, "3.5");
    table.row(List.of("aal", "40", "9.0"));
    assertEquals(
        "| path | GETs | MB |\n"
            + "|---|---|---|\n"
            + "| seekwell | 12 | 3.5 |\n"
            + "| aal | 40 | 9.0 |\n",
        table.toString());
  }

  @Test
  void aTableWithNoRowIsEmptyAndStillHasItsHeader() {
    MarkdownTable table = new MarkdownTable("path");
    assertTrue(table.isEmpty());
    assertEquals("| path |\n|---|\n", table.toString());
  }

  @Test
  void aRowOfTheWrongWidthIsRefused() {
    MarkdownTable table = new MarkdownTable("path", "GETs");
    assertThrows(IllegalArgumentException.class, () -> table.row("seekwell"));
  }

  @Test
  void aSpreadIsTheMedianAndTheRange() {
    assertEquals(new Spread(2, 1, 9), Spread.of(9, 1, 2));
    assertEquals(new Spread(2.5, 1, 9), Spread.of(9, 1, 2, 3));
    assertEquals("2.50 (1.00–9.00)", Spread.of(9, 1, 2, 3).cell());
    assertEquals(new Spread(0, 0, 0), Spread.of());
  }
}
