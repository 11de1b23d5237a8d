package io.seekwell.orc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

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
    try (Writer writer =
        OrcFile.createWriter(
            new org.apache.hadoop.fs.Path(file.toUri()),
            OrcFile.writerOptions(new Configuration(false))
                .setSchema(schema)
                .stripeSize(stripeSize)
                .bufferSize(64 * 1024)
                .compress(compression))) {
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
