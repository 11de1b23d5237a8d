package io.seekwell.spark;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.Spark3Util;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Iceberg table the Spark tests write ({@code id}, {@code category}, {@code amount}) and the
 * queries whose answers they compare across FileIOs.
 */
final class EventsTable {

  static final String NAME = "lake.db.events";

  private EventsTable() {}

  /** The rows with ids {@code [from, to)}, made by {@code partitions} tasks (a file each). */
  static String rows(long from, long to, int partitions) {
    return "SELECT id, concat('c', id % 7), (id * 37 % 1000) / 10.0 FROM range("
        + from
        + ", "
        + to
        + ", 1, "
        + partitions
        + ")";
  }

  /** Count, sums, a filter, a group-by, a hash over every row and three metadata tables. */
  static Map<String, String> queries() {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("count", "SELECT count(*) FROM " + NAME);
    queries.put("sum", "SELECT round(sum(amount), 2), min(id), max(id) FROM " + NAME);
    queries.put(
        "filter", "SELECT count(*) FROM " + NAME + " WHERE amount > 50 AND category = 'c3'");
    queries.put(
        "group by",
        "SELECT category, count(*), round(sum(amount), 2) FROM "
            + NAME
            + " GROUP BY category ORDER BY category");
    queries.put("full-scan hash", "SELECT bit_xor(xxhash64(id, category, amount)) FROM " + NAME);
    queries.put("files", "SELECT count(*), sum(record_count) FROM " + NAME + ".files");
    queries.put("snapshots", "SELECT operation FROM " + NAME + ".snapshots ORDER BY committed_at");
    queries.put("manifests", "SELECT count(*) FROM " + NAME + ".manifests");
    return queries;
  }

  /** The rows {@code query} answers in {@code session}, as text. */
  static List<String> answer(SparkSession session, String query) {
    return session.sql(query).collectAsList().stream().map(Row::toString).toList();
  }

  /** The table as {@code session}'s catalog loads it (with its FileIO). */
  static Table load(SparkSession session) {
    try {
      return Spark3Util.loadIcebergTable(session, NAME);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot load " + NAME, e);
    }
  }
}
