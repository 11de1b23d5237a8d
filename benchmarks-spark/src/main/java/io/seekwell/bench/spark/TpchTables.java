package io.seekwell.bench.spark;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The eight TPC-H tables as the generator ({@code io.trino.tpch}) makes them, in the types the
 * specification gives: identifiers {@code BIGINT}, integers {@code INT}, dates {@code DATE},
 * decimals (prices, quantities, rates) {@code DECIMAL(15,2)} so that every engine path sums them
 * exactly, and strings. Stateless.
 */
final class TpchTables {

  /** Files per table at scale factor 1: a few for the large tables, one for the others. */
  private static final Map<String, Integer> FILES_AT_SF1 =
      Map.of("lineitem", 4, "orders", 2, "partsupp", 2);

  private static final DataType DECIMAL = DataTypes.createDecimalType(15, 2);

  private TpchTables() {}

  /** The tables' names: customer, orders, lineitem, part, partsupp, supplier, nation, region. */
  static List<String> names() {
    return TpchTable.getTables().stream().map(TpchTable::getTableName).toList();
  }

  /** How many files {@code table} is written as at {@code scale}: at least one. */
  static int files(String table, double scale) {
    return Math.max(1, (int) Math.round(FILES_AT_SF1.getOrDefault(table, 1) * scale));
  }

  /** The Spark schema of {@code table}. */
  static StructType schema(String table) {
    List<StructField> fields = new ArrayList<>();
    for (TpchColumn<?> column : TpchTable.getTable(table).getColumns()) {
      fields.add(DataTypes.createStructField(column.getColumnName(), type(column), false));
    }
    return DataTypes.createStructType(fields);
  }

  /** The rows of part {@code part} (1-based) of {@code parts} of {@code table} at {@code scale}. */
  static Iterator<Row> rows(String table, double scale, int part, int parts) {
    return rows(TpchTable.getTable(table), scale, part, parts);
  }

  private static <E extends TpchEntity> Iterator<Row> rows(
      TpchTable<E> table, double scale, int part, int parts) {
    Iterator<E> entities = table.createGenerator(scale, part, parts).iterator();
    List<TpchColumn<E>> columns = table.getColumns();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entities.hasNext();
      }

      @Override
      public Row next() {
        E entity = entities.next();
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = value(columns.get(i), entity);
        }
        return RowFactory.create(values);
      }
    };
  }

  private static DataType type(TpchColumn<?> column) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> DataTypes.LongType;
      case INTEGER -> DataTypes.IntegerType;
      case DATE -> DataTypes.DateType;
      case DOUBLE -> DECIMAL;
      case VARCHAR -> DataTypes.StringType;
    };
  }

  private static <E extends TpchEntity> Object value(TpchColumn<E> column, E entity) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> column.getIdentifier(entity);
      case INTEGER -> column.getInteger(entity);
      // Days since 1970-01-01; Spark takes LocalDate with the Java 8 time API on.
      case DATE -> LocalDate.ofEpochDay(column.getDate(entity));
      case DOUBLE -> BigDecimal.valueOf(column.getDouble(entity)).setScale(2, RoundingMode.HALF_UP);
      case VARCHAR -> column.getString(entity);
    };
  }
}
