package io.seekwell.parquet;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stream's first read of column chunks (all the ranges of one vectored read), checked against the
 * columns earlier readers of the schema read: if they read every column it reads, their columns are
 * predicted, but for those whose chunk in its row group lies before the end of that read and was
 * not read; if not, the queries have turned to other columns, nothing is predicted from them, and
 * the stream predicts only its own columns from then on. Logged at DEBUG when it turns the history
 * down. Not thread-safe: the stream's thread owns it.
 */
final class FirstColumnsCheck {

  private static final Logger LOG = LoggerFactory.getLogger(FirstColumnsCheck.class);

  private final String file;
  private final Set<String> firstColumns = new HashSet<>();
  private Set<String> history; // null until the first chunk is touched
  private int rowGroup = Integer.MAX_VALUE;
  private boolean decided;
  private boolean turned;

  FirstColumnsCheck(String file) {
    this.file = file;
  }

  /**
   * The stream touches {@code chunk} for the first time, before its reader learns the column;
   * {@code earlierReaders} gives what the schema's readers read, asked for at the first chunk only.
   */
  void touched(ParquetLayout.Chunk chunk, Supplier<Set<String>> earlierReaders) {
    if (history == null) {
      history = earlierReaders.get();
    }
    if (!decided) {
      firstColumns.add(chunk.column());
      rowGroup = Math.min(rowGroup, chunk.rowGroup());
    }
  }

  /**
   * Once the first read of columns, ending at byte {@code last}, is in: the columns to predict from
   * {@link #rowGroup()} on; null if there is nothing to predict from earlier readers, or the first
   * read is not in yet, or it was decided before.
   */
  Set<String> decide(ParquetLayout parsed, long last) {
    if (history == null || decided) {
      return null;
    }
    decided = true;
    if (history.isEmpty()) {
      return null;
    }
    if (!history.containsAll(firstColumns)) {
      turned = true;
      LOG.debug(
          "{}: its first read of columns, {}, is of other columns than earlier readers read ({}):"
              + " nothing predicted from them",
          file,
          firstColumns,
          history);
      return null;
    }
    Set<String> columns = new HashSet<>(history);
    for (ParquetLayout.Chunk chunk : parsed.chunksByRowGroup().get(rowGroup)) {
      if (chunk.end() < last && !firstColumns.contains(chunk.column())) {
        columns.remove(chunk.column());
      }
    }
    return columns;
  }

  /** The row group of the first read of columns. */
  int rowGroup() {
    return rowGroup;
  }

  /** Whether the first read showed the queries turned: the stream predicts its own columns only. */
  boolean turned() {
    return turned;
  }
}
