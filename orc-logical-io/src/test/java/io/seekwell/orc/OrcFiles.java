package io.seekwell.orc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.RecordReaderImpl;

/** ORC files written and read by Apache ORC itself, for tests. */
final class OrcFiles {

  private OrcFiles() {}

  /**
   * Writes {@code rows} rows of {@code columns} random long columns (seed {@code seed}) to {@code
   * file}, in stripes of about {@code stripeSize} bytes, compressed with {@code compression}.
   *
   * @return the file's bytes
   */
  static byte[] write(
      Path file, int columns, int rows, long stripeSize, CompressionKind compression, long seed)
      throws IOException {
    TypeDescription schema = TypeDescription.createStruct();
    for (int column = 0; column < columns; column++) {
      schema.addField("c" + column, TypeDescription.createLong());
    }
    Random random = new Random(seed);
    try (Writer writer = writer(file, schema, stripeSize, compression)) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (int row = 0; row < rows; row++) {
        int at = batch.size++;
        for (int column = 0; column < columns; column++) {
          ((LongColumnVector) batch.cols[column]).vector[at] = random.nextLong();
        }
        if (batch.size == batch.getMaxSize() || row == rows - 1) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
    }
    return Files.readAllBytes(file);
  }

  /** A writer of {@code schema} to {@code file}, with compression chunks of 64 KiB. */
  private static Writer writer(
      Path file, TypeDescription schema, long stripeSize, CompressionKind compression)
      throws IOException {
    return OrcFile.createWriter(
        new org.apache.hadoop.fs.Path(file.toUri()),
        OrcFile.writerOptions(new Configuration(false))
            .setSchema(schema)
            .stripeSize(stripeSize)
            .bufferSize(64 * 1024)
            .compress(compression));
  }

  /**
   * Writes {@code rows} rows of {@code columns} columns alternating wide and narrow (seed {@code
   * seed}) to {@code file}, ZLIB-compressed, in stripes of about {@code stripeSize} bytes: even
   * columns are strings of 24 random letters, odd ones longs from 0 to 3, a few of them null.
   *
   * @return the file's bytes
   */
  static byte[] writeMixed(Path file, int columns, int rows, long stripeSize, long seed)
      throws IOException {
    TypeDescription schema = TypeDescription.createStruct();
    for (int column = 0; column < columns; column++) {
      schema.addField(
          "c" + column,
          column % 2 == 0 ? TypeDescription.createString() : TypeDescription.createLong());
    }
    Random random = new Random(seed);
    byte[] letters = new byte[24];
    try (Writer writer = writer(file, schema, stripeSize, CompressionKind.ZLIB)) {
      VectorizedRowBatch batch = schema.createRowBatch();
      for (int row = 0; row < rows; row++) {
        int at = batch.size++;
        for (int column = 0; column < columns; column++) {
          if (column % 2 == 0) {
            for (int i = 0; i < letters.length; i++) {
              letters[i] = (byte) ('a' + random.nextInt(26));
            }
            ((BytesColumnVector) batch.cols[column]).setVal(at, letters);
          } else if (random.nextInt(100) == 0) {
            batch.cols[column].noNulls = false;
            batch.cols[column].isNull[at] = true;
          } else {
            ((LongColumnVector) batch.cols[column]).vector[at] = random.nextInt(4);
          }
        }
        if (batch.size == batch.getMaxSize() || row == rows - 1) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
    }
    return Files.readAllBytes(file);
  }

  /**
   * Every value of the {@code include}d columns (ORC's column ids; null for all), row by row, as
   * Apache ORC's reader reads them from {@code path} of {@code fs}.
   */
  static List<String> values(FileSystem fs, org.apache.hadoop.fs.Path path, boolean[] include)
      throws IOException {
    List<String> values = new ArrayList<>();
    try (Reader reader =
            OrcFile.createReader(path, OrcFile.readerOptions(fs.getConf()).filesystem(fs));
        RecordReader rows = reader.rows(reader.options().include(include))) {
      VectorizedRowBatch batch = reader.getSchema().createRowBatch();
      StringBuilder value = new StringBuilder();
      while (rows.nextBatch(batch)) {
        for (int row = 0; row < batch.size; row++) {
          for (int column = 0; column < batch.cols.length; column++) {
            if (include == null || include[column + 1]) {
              value.setLength(0);
              batch.cols[column].stringifyValue(value, row);
              values.add(value.toString());
            }
          }
        }
      }
    }
    return values;
  }

  /**
   * The data streams of each stripe of {@code file} (of {@code columns} columns, the root
   * included), from the stripe footers Apache ORC's reader reads.
   */
  static List<StripeStreams> streams(Path file, int columns) throws IOException {
    List<Stripe> stripes = stripes(file);
    List<StripeStreams> streams = new ArrayList<>();
    try (Reader reader =
            OrcFile.createReader(
                new org.apache.hadoop.fs.Path(file.toUri()),
                OrcFile.readerOptions(new Configuration(false)));
        RecordReaderImpl rows = (RecordReaderImpl) reader.rows()) {
      List<StripeInformation> information = reader.getStripes();
      for (int i = 0; i < information.size(); i++) {
        streams.add(
            StripeStreams.of(stripes.get(i), rows.readStripeFooter(information.get(i)), columns));
      }
    }
    return streams;
  }

  /** The stripes of {@code file} as Apache ORC's reader lists them. */
  static List<Stripe> stripes(Path file) throws IOException {
    try (Reader reader =
        OrcFile.createReader(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.readerOptions(new Configuration(false)))) {
      return reader.getStripes().stream().map(OrcFiles::stripe).toList();
    }
  }

  private static Stripe stripe(StripeInformation stripe) {
    return new Stripe(
        stripe.getOffset(),
        stripe.getIndexLength(),
        stripe.getDataLength(),
        stripe.getFooterLength());
  }
}
