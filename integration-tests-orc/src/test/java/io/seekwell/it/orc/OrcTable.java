package io.seekwell.it.orc;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.RecordReader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/**
 * A multi-stripe ORC table written and read with whichever ORC build is on the class path. The
 * builds differ in the package of their row batches (Hive's storage API, or relocated under {@code
 * org.apache.orc.storage} in nohive), so batches are only ever held as {@code var}, and the typed
 * column vectors are filled through their public fields by name.
 */
final class OrcTable {

  /** Columns: {@code id} (bigint), {@code amount} (double), {@code name} (string), then longs. */
  static final int COLUMNS = 24;

  static final int ROWS = 60_000;

  private OrcTable() {}

  static TypeDescription schema() {
    TypeDescription schema = TypeDescription.createStruct();
    schema.addField("id", TypeDescription.createLong());
    schema.addField("amount", TypeDescription.createDouble());
    schema.addField("name", TypeDescription.createString());
    for (int column = 3; column < COLUMNS; column++) {
      schema.addField("c" + column, TypeDescription.createLong());
    }
    return schema;
  }

  /** Writes the table to {@code file}, in stripes of about 512 KiB compressed with {@code kind}. */
  static void write(Path file, Configuration conf, CompressionKind kind) throws IOException {
    TypeDescription schema = schema();
    SplittableRandom random = new SplittableRandom(31);
    try (Writer writer =
        OrcFile.createWriter(
            file,
            OrcFile.writerOptions(conf)
                .setSchema(schema)
                .compress(kind)
                .stripeSize(512 * 1024)
                .bufferSize(64 * 1024))) {
      var batch = schema.createRowBatch();
      for (int row = 0; row < ROWS; row++) {
        int at = batch.size++;
        longs(batch.cols[0])[at] = row;
        doubles(batch.cols[1])[at] = random.nextInt(1_000_000) / 100.0;
        setBytes(
            batch.cols[2], at, ("name-" + random.nextInt(5_000)).getBytes(StandardCharsets.UTF_8));
        for (int column = 3; column < COLUMNS; column++) {
          longs(batch.cols[column])[at] = random.nextLong(1_000_000);
        }
        if (batch.size == batch.getMaxSize() || row == ROWS - 1) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
    }
  }

  /**
   * The rows of the {@code include}d columns (all if null) as ORC's reader gives them, a text per
   * batch (the batch's own rendering of every row).
   */
  static List<String> read(Reader reader, boolean[] include) throws IOException {
    List<String> batches = new ArrayList<>();
    try (RecordReader rows = reader.rows(reader.options().include(include))) {
      var batch = reader.getSchema().createRowBatch();
      while (rows.nextBatch(batch)) {
        batches.add(batch.toString());
      }
    }
    return batches;
  }

  /** ORC's include flags for the given columns (field 0 is the row struct). */
  static boolean[] only(int... columns) {
    boolean[] include = new boolean[COLUMNS + 1];
    include[0] = true;
    for (int column : columns) {
      include[column + 1] = true;
    }
    return include;
  }

  private static long[] longs(Object vector) {
    return (long[]) field(vector, "vector");
  }

  private static double[] doubles(Object vector) {
    return (double[]) field(vector, "vector");
  }

  private static void setBytes(Object vector, int row, byte[] bytes) {
    try {
      vector.getClass().getMethod("setVal", int.class, byte[].class).invoke(vector, row, bytes);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Not a BytesColumnVector: " + vector.getClass(), e);
    }
  }

  private static Object field(Object vector, String name) {
    try {
      Field field = vector.getClass().getField(name);
      return field.get(vector);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(vector.getClass() + " has no field " + name, e);
    }
  }
}
