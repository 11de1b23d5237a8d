package io.seekwell.bench.workloads;

import io.seekwell.bench.Options;
import io.seekwell.bench.Progress;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.Uploads;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The benchmark's objects, generated once per scale into a local cache and uploaded when the store
 * lacks them: a wide Parquet table of 8 row groups, a raw file for byte-level reads, many small
 * Parquet files, and an ORC table of 128 columns.
 */
public final class Dataset {

  /** How big the objects are: full as specified, or small for a smoke run. */
  public enum Scale {
    FULL(6_710_886, 128L << 20, 1L << 30, 100, 65_536),
    QUICK(200_000, 4L << 20, 32L << 20, 10, 4_096);

    final long tableRows;
    final long rowGroupBytes;
    final long rawBytes;
    final int smallFiles;
    final long orcRows;

    Scale(long tableRows, long rowGroupBytes, long rawBytes, int smallFiles, long orcRows) {
      this.tableRows = tableRows;
      this.rowGroupBytes = rowGroupBytes;
      this.rawBytes = rawBytes;
      this.smallFiles = smallFiles;
      this.orcRows = orcRows;
    }

    /** The data's scale, {@code --scale full|quick} (full by default). */
    public static Scale of(Options options) {
      return options.value(
          "scale", "full", "full or quick", name -> valueOf(name.toUpperCase(Locale.ROOT)));
    }
  }

  private static final long SMALL_FILE_ROWS = 6_500;

  final String table;
  final String raw;
  final List<String> smallTables;
  final String orcTable;

  /** The ORC table's stripes. */
  public final int orcStripes;

  /** The bytes W1's projection must fetch at least: its column chunks and the footer. */
  public final long projectionBytes;

  private final Map<String, Long> lengths;

  private Dataset(
      String table,
      String raw,
      List<String> smallTables,
      String orcTable,
      int orcStripes,
      long projectionBytes,
      Map<String, Long> lengths) {
    this.table = table;
    this.raw = raw;
    this.smallTables = smallTables;
    this.orcTable = orcTable;
    this.orcStripes = orcStripes;
    this.projectionBytes = projectionBytes;
    this.lengths = lengths;
  }

  /** The small files' count: the task group's (W9) files. */
  public int smallFiles() {
    return smallTables.size();
  }

  long length(String key) {
    return lengths.get(key);
  }

  /** Generates what is missing in {@code cache} and uploads what is missing in the store. */
  public static Dataset prepare(S3Client admin, Path cache, Scale scale) throws IOException {
    Path dir = Files.createDirectories(cache.resolve(scale.name().toLowerCase(Locale.ROOT)));
    Uploads.ensureBucket(admin, Store.BUCKET);
    Progress progress =
        Progress.of("preparing the " + scale + " data", () -> Progress.megabytesIn(dir));
    try {
      return prepareIn(dir, admin, scale);
    } finally {
      progress.close();
    }
  }

  private static Dataset prepareIn(Path dir, S3Client admin, Scale scale) throws IOException {
    Map<String, Long> lengths = new LinkedHashMap<>();
    String prefix = scale.name().toLowerCase(Locale.ROOT) + "/";
    String table = prefix + "table.parquet";
    Path tableFile = dir.resolve("table.parquet");
    if (!Files.exists(tableFile)) {
      System.out.println("... generating the " + scale + " table (once; cached in " + dir + ")");
      SampleTable.write(tableFile, scale.tableRows, scale.rowGroupBytes, 1);
    }
    upload(admin, table, tableFile, lengths);
    String raw = prefix + "raw.bin";
    Path rawFile = dir.resolve("raw.bin");
    if (!Files.exists(rawFile)) {
      writeRandom(rawFile, scale.rawBytes);
    }
    upload(admin, raw, rawFile, lengths);
    List<String> smallTables = new ArrayList<>();
    for (int i = 0; i < scale.smallFiles; i++) {
      String key = prefix + "small/part-" + i + ".parquet";
      Path file = dir.resolve("small-" + i + ".parquet");
      if (!Files.exists(file)) {
        SampleTable.write(file, SMALL_FILE_ROWS, 128L << 20, 100 + i);
      }
      upload(admin, key, file, lengths);
      smallTables.add(key);
    }
    String orcTable = prefix + "table.orc";
    Path orcFile = dir.resolve("table.orc");
    if (!Files.exists(orcFile)) {
      System.out.println(
          "... generating the " + scale + " ORC table (once; cached in " + dir + ")");
      OrcTable.write(orcFile, scale.orcRows);
    }
    upload(admin, orcTable, orcFile, lengths);
    return new Dataset(
        table,
        raw,
        List.copyOf(smallTables),
        orcTable,
        OrcTable.stripes(orcFile),
        ParquetProjection.bytesNeeded(tableFile, Workload.PROJECTION),
        lengths);
  }

  private static void upload(S3Client admin, String key, Path file, Map<String, Long> lengths)
      throws IOException {
    long length = Files.size(file);
    Uploads.putIfMissing(admin, Store.BUCKET, key, length, () -> RequestBody.fromFile(file));
    lengths.put(key, length);
  }

  private static void writeRandom(Path file, long bytes) throws IOException {
    SplittableRandom random = new SplittableRandom(7);
    byte[] chunk = new byte[8 << 20];
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long written = 0; written < bytes; written += chunk.length) {
        random.nextBytes(chunk);
        out.write(chunk, 0, (int) Math.min(chunk.length, bytes - written));
      }
    }
  }
}
