package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.storage.ql.exec.vector.LongColumnVector;
import org.apache.orc.storage.ql.exec.vector.VectorizedRowBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ORC's own reader (orc-core, as Iceberg ships it) over S3A with Seekwell's streams and the ORC
 * plug-in, against MinIO: every value equals a local read, for all columns and for a few.
 */
class SeekwellS3aOrcMinioTest {

  private static final int COLUMNS = 24;
  private static final int ROWS = 60_000;

  private static TypeDescription schema() {
    TypeDescription schema = TypeDescription.createStruct();
    for (int column = 0; column < COLUMNS; column++) {
      schema.addField("c" + column, TypeDescription.createLong());
    }
    return schema;
  }

  private static void write(org.apache.hadoop.fs.Path file, Configuration conf) throws IOException {
    TypeDescription schema = schema();
    SplittableRandom random = new SplittableRandom(31);
    try (Writer writer =
        OrcFile.createWriter(
            file, OrcFile.writerOptions(conf).setSchema(schema).stripeSize(512 * 1024))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (int row = 0; row < ROWS; row++) {
        int at = batch.size++;
        for (int column = 0; column < COLUMNS; column++) {
          ((LongColumnVector) batch.cols[column]).vector[at] = random.nextLong(1_000_000);
        }
        if (batch.size == batch.getMaxSize() || row == ROWS - 1) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
    }
  }

  /** The values of the {@code include}d columns (all if null), row by row, as ORC reads them. */
  private static List<Long> read(
      org.apache.hadoop.fs.Path file, Configuration conf, boolean[] include) throws IOException {
    List<Long> values = new ArrayList<>();
    try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(conf));
        RecordReader rows = reader.rows(reader.options().include(include))) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      while (rows.nextBatch(batch)) {
        for (int row = 0; row < batch.size; row++) {
          for (int column = 0; column < COLUMNS; column++) {
            if (include == null || include[column + 1]) {
              values.add(((LongColumnVector) batch.cols[column]).vector[row]);
            }
          }
        }
      }
    }
    return values;
  }

  private static boolean[] only(int... columns) {
    boolean[] include = new boolean[COLUMNS + 1];
    include[0] = true;
    for (int column : columns) {
      include[column + 1] = true;
    }
    return include;
  }

  @Test
  void orcsReaderReadsTheSameValuesThroughSeekwellStreams(@TempDir Path dir) throws Exception {
    Configuration local = new Configuration();
    org.apache.hadoop.fs.Path localFile =
        new org.apache.hadoop.fs.Path(dir.resolve("t.orc").toUri());
    write(localFile, local);
    Configuration conf = SeekwellS3aSetup.configure(new Configuration());
    org.apache.hadoop.fs.Path remote =
        new org.apache.hadoop.fs.Path("s3a://" + SeekwellS3aSetup.BUCKET + "/orc/t.orc");
    try (FileSystem fs = FileSystem.newInstance(remote.toUri(), conf)) {
      fs.copyFromLocalFile(localFile, remote);
      try (FSDataInputStream in = fs.open(remote)) {
        assertEquals(
            "io.seekwell.hadoop.SeekwellS3aInputStream",
            in.getWrappedStream().getClass().getName());
      }
    }
    // All columns, three of them, one.
    for (boolean[] include : Arrays.asList(null, only(2, 11, 17), only(0))) {
      List<Long> expected = read(localFile, local, include);
      assertTrue(expected.size() >= ROWS, expected.size() + " values");
      assertEquals(expected, read(remote, conf, include));
    }
  }
}
