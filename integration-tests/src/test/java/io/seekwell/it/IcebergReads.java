package io.seekwell.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/** Reads of an Iceberg table through a given FileIO, for comparing FileIOs. */
final class IcebergReads {

  /** A table's rows read whole, then projected and filtered ({@link #wholeThenProjected}). */
  record Reads(List<String> whole, List<String> projected) {}

  private IcebergReads() {}

  /**
   * Reads the table at {@code metadataLocation} through {@code io} twice: all its rows, then the
   * columns {@code id}, {@code m3} and {@code m7} of the rows whose {@code id} is at least {@code
   * fromId}.
   */
  static Reads wholeThenProjected(String metadataLocation, FileIO io, long fromId)
      throws IOException {
    return new Reads(
        rows(metadataLocation, io, null, null),
        rows(
            metadataLocation,
            io,
            List.of("id", "m3", "m7"),
            Expressions.greaterThanOrEqual("id", fromId)));
  }

  /**
   * The rows of the table at {@code metadataLocation}, read through {@code io}, as sorted strings:
   * {@code columns} only (all if null), where {@code filter} holds (all if null).
   */
  static List<String> rows(
      String metadataLocation, FileIO io, List<String> columns, Expression filter)
      throws IOException {
    Table table = new BaseTable(new StaticTableOperations(metadataLocation, io), "table");
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
    if (columns != null) {
      scan = scan.select(columns);
    }
    if (filter != null) {
      scan = scan.where(filter);
    }
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        rows.add(record.toString());
      }
    }
    rows.sort(null);
    return rows;
  }
}
