package io.seekwell.parquet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** Writes and reads Parquet files with deterministic data for the tests (shared as a test-jar). */
public final class ParquetFiles {

  private ParquetFiles() {}

  /** A schema of {@code columns} double columns named {@code c0}, {@code c1}, … */
  public static MessageType doubles(int columns) {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (int i = 0; i < columns; i++) {
      builder.required(PrimitiveTypeName.DOUBLE).named("c" + i);
    }
    return builder.named("table");
  }

  /**
   * Writes {@code rows} rows of seeded random doubles, uncompressed and without dictionaries, in
   * row groups of {@code rowGroupBytes}.
   */
  public static Path write(Path file, MessageType schema, int rows, long rowGroupBytes, long seed)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    int columns = schema.getFieldCount();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(schema)
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withDictionaryEncoding(false)
            .withRowGroupSize(rowGroupBytes)
            .withPageSize(1024 * 1024)
            .build()) {
      for (int row = 0; row < rows; row++) {
        Group group = groups.newGroup();
        for (int column = 0; column < columns; column++) {
          group.add(column, random.nextDouble());
        }
        writer.write(group);
      }
    }
    return file;
  }

  /**
   * Reads {@code columns} (double columns) of every row, with vectored reads where the file's
   * streams offer them, and returns per column a checksum of every value in order.
   */
  public static List<Long> readColumns(InputFile input, List<String> columns) throws IOException {
    return readColumns(input, columns, true);
  }

  /** The same, with parquet-java's vectored reads on or off. */
  public static List<Long> readColumns(InputFile input, List<String> columns, boolean vectored)
      throws IOException {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    for (String column : columns) {
      builder.required(PrimitiveTypeName.DOUBLE).named(column);
    }
    MessageType projection = builder.named("table");
    List<Long> sums = new ArrayList<>(Collections.nCopies(columns.size(), 0L));
    ParquetReadOptions options =
        ParquetReadOptions.builder().withUseHadoopVectoredIo(vectored).build();
    try (ParquetFileReader reader = ParquetFileReader.open(input, options)) {
      reader.setRequestedSchema(projection);
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        RecordReader<Group> records =
            new ColumnIOFactory()
                .getColumnIO(projection)
                .getRecordReader(rowGroup, new GroupRecordConverter(projection));
        for (long row = 0; row < rowGroup.getRowCount(); row++) {
          Group group = records.read();
          for (int i = 0; i < columns.size(); i++) {
            long bits = Double.doubleToLongBits(group.getDouble(columns.get(i), 0));
            sums.set(i, sums.get(i) * 31 + bits);
          }
        }
      }
    }
    return sums;
  }
}
