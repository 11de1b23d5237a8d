package io.seekwell.bench.workloads;

import io.seekwell.bench.paths.OrcInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * The ORC table of the benchmark, the shape the ORC-on-S3 study measured: 128 columns of random
 * doubles, ZLIB-compressed with ORC's default stripe size; read with ORC's own reader as Hive and
 * Hadoop MapReduce jobs have it, plain orc-core 1.9 (positional reads, one per stream range unless
 * {@code orc.min.disk.seek.size} merges them).
 */
final class OrcTable {

  static final int COLUMNS = 128;

  /** Every column. */
  static final boolean[] ALL = include(IntStream.range(0, COLUMNS));

  /** Every other column, starting with the first. */
  static final boolean[] ALTERNATE = include(IntStream.range(0, COLUMNS).filter(c -> c % 2 == 0));

  /** Three columns far apart. */
  static final boolean[] THREE = include(IntStream.of(3, 64, 121));

  private OrcTable() {}

  /** ORC's include flags: the root struct and the columns {@code columns} lists. */
  private static boolean[] include(IntStream columns) {
    boolean[] include = new boolean[COLUMNS + 1];
    include[0] = true;
    columns.forEach(column -> include[column + 1] = true);
    return include;
  }

  /** Writes {@code rows} rows to {@code file}. */
  static void write(Path file, long rows) throws IOException {
    TypeDescription schema = TypeDescription.createStruct();
    for (int column = 0; column < COLUMNS; column++) {
      schema.addField("d" + column, TypeDescription.createDouble());
    }
    SplittableRandom random = new SplittableRandom(11);
    Configuration conf = new Configuration(false);
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(conf).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (long row = 0; row < rows; row++) {
        int at = batch.size++;
        for (int column = 0; column < COLUMNS; column++) {
          ((DoubleColumnVector) batch.cols[column]).vector[at] = random.nextDouble();
        }
        if (batch.size == batch.getMaxSize() || row == rows - 1) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
    }
  }

  /** The number of stripes of the ORC file {@code file}. */
  static int stripes(Path file) throws IOException {
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.readerOptions(new Configuration(false)))) {
      return reader.getStripes().size();
    }
  }

  /** Reads the {@code include}d columns of every row; returns a checksum of the values. */
  static long scan(OrcInput input, boolean[] include) throws IOException {
    long checksum = 0;
    try (Reader reader =
            OrcFile.createReader(
                input.path(),
                OrcFile.readerOptions(input.conf())
                    .filesystem(input.fs())
                    .maxLength(input.length()));
        RecordReader rows = reader.rows(reader.options().include(include))) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      while (rows.nextBatch(batch)) {
        for (int column = 0; column < COLUMNS; column++) {
          if (include[column + 1]) {
            double[] values = ((DoubleColumnVector) batch.cols[column]).vector;
            for (int row = 0; row < batch.size; row++) {
              checksum = checksum * 31 + Double.doubleToLongBits(values[row]);
            }
          }
        }
      }
    }
    return checksum;
  }
}
