package io.seekwell.it;

import io.seekwell.testing.S3TestBucket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.orc.GenericOrcWriter;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.orc.ORC;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * A table of events, written with Iceberg's own writers through {@link S3FileIO} into a test bucket
 * (JDBC catalog on an in-memory H2): an {@code id} and 12 random doubles {@code m0..m11}, one data
 * file per append.
 */
final class EventsTable {

  static final int DOUBLE_COLUMNS = 12;
  static final Schema SCHEMA = schema();

  /** The table written: its metadata file and its data files, in order. */
  record Written(String metadataLocation, List<DataFile> files) {}

  private EventsTable() {}

  private static Schema schema() {
    List<Types.NestedField> fields = new ArrayList<>();
    fields.add(Types.NestedField.required(1, "id", Types.LongType.get()));
    for (int i = 0; i < DOUBLE_COLUMNS; i++) {
      fields.add(Types.NestedField.required(2 + i, "m" + i, Types.DoubleType.get()));
    }
    return new Schema(fields);
  }

  /**
   * Writes table {@code name} of {@code files} {@code format} files of {@code rowsPerFile} rows
   * (ids in order, doubles from {@code seed}); ORC files in stripes of about 512 KiB.
   */
  static Written write(
      S3TestBucket bucket,
      Map<String, String> properties,
      String name,
      FileFormat format,
      int files,
      int rowsPerFile,
      long seed)
      throws IOException {
    Map<String, String> catalogProperties = new HashMap<>(properties);
    catalogProperties.put(CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName());
    catalogProperties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://" + bucket.name() + "/wh");
    catalogProperties.put(
        CatalogProperties.URI, "jdbc:h2:mem:" + name + "-" + bucket.name() + ";DB_CLOSE_DELAY=-1");
    List<DataFile> written = new ArrayList<>();
    try (JdbcCatalog catalog = new JdbcCatalog()) {
      catalog.initialize("jdbc", catalogProperties);
      catalog.createNamespace(Namespace.of("db"));
      Table table =
          catalog.createTable(
              TableIdentifier.of("db", name),
              SCHEMA,
              PartitionSpec.unpartitioned(),
              Map.of(TableProperties.DEFAULT_FILE_FORMAT, format.name().toLowerCase()));
      SplittableRandom random = new SplittableRandom(seed);
      for (int file = 0; file < files; file++) {
        OutputFile out =
            table
                .io()
                .newOutputFile(
                    table.locationProvider().newDataLocation(format.addExtension("part-" + file)));
        DataWriter<Record> writer = writer(format, out);
        try (writer) {
          for (int row = 0; row < rowsPerFile; row++) {
            GenericRecord record = GenericRecord.create(SCHEMA);
            record.setField("id", (long) file * rowsPerFile + row);
            for (int i = 0; i < DOUBLE_COLUMNS; i++) {
              record.setField("m" + i, random.nextDouble());
            }
            writer.write(record);
          }
        }
        written.add(writer.toDataFile());
        table.newAppend().appendFile(writer.toDataFile()).commit();
      }
      return new Written(
          ((HasTableOperations) table).operations().current().metadataFileLocation(), written);
    }
  }

  private static DataWriter<Record> writer(FileFormat format, OutputFile out) throws IOException {
    return switch (format) {
      case PARQUET ->
          Parquet.writeData(out)
              .schema(SCHEMA)
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(PartitionSpec.unpartitioned())
              .overwrite()
              .build();
      case ORC ->
          ORC.writeData(out)
              .schema(SCHEMA)
              .createWriterFunc(GenericOrcWriter::buildWriter)
              .withSpec(PartitionSpec.unpartitioned())
              .set(TableProperties.ORC_STRIPE_SIZE_BYTES, String.valueOf(512 * 1024))
              .overwrite()
              .build();
      default -> throw new IllegalArgumentException("No writer for " + format);
    };
  }
}
