package io.seekwell.parquet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** Writes Parquet files with deterministic data for the tests. */
final class ParquetFiles {

  private ParquetFiles() {}

  /** A schema of {@code columns} double columns named {@code c0}, {@code c1}, … */
  static MessageType doubles(int columns) {
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
  static Path write(Path file, MessageType schema, int rows, long rowGroupBytes, long seed)
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
}
