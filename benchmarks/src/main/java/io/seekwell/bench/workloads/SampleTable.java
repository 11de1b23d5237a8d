package io.seekwell.bench.workloads;

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

/**
 * The sample table of the demo and the benchmark: an {@code id} and 19 double columns {@code
 * m1}…{@code m19} of seeded random values, uncompressed, so sizes are predictable (160 bytes a
 * row).
 */
public final class SampleTable {

  public static final int COLUMNS = 20;
  static final int BYTES_PER_ROW = 8 * COLUMNS;

  private SampleTable() {}

  /** Writes {@code rows} rows in row groups of about {@code rowGroupBytes}. */
  public static Path write(Path file, long rows, long rowGroupBytes, long seed) throws IOException {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    builder.required(PrimitiveTypeName.INT64).named("id");
    for (int i = 1; i < COLUMNS; i++) {
      builder.required(PrimitiveTypeName.DOUBLE).named("m" + i);
    }
    MessageType schema = builder.named("table");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    SplittableRandom random = new SplittableRandom(seed);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(schema)
            .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
            .withDictionaryEncoding(false)
            .withRowGroupSize(rowGroupBytes)
            .build()) {
      for (long row = 0; row < rows; row++) {
        Group group = groups.newGroup().append("id", row);
        for (int i = 1; i < COLUMNS; i++) {
          group.append("m" + i, random.nextDouble());
        }
        writer.write(group);
      }
    }
    return file;
  }
}
