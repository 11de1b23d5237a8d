package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.AnnouncedObject;
import io.seekwell.Announcement;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small Parquet files whose readers read only the footer (as engines do when they plan or compute
 * file metrics) are opened with one GET for about the footer, once a reader of a file beside them
 * did so; files read whole still cost one GET each.
 */
class FooterOnlyOpensTest {

  private static final int FILES = 8;
  private static final List<String> ALL_COLUMNS = List.of("c0", "c1", "c2", "c3");

  @TempDir static Path dir;
  private static final List<Path> local = new ArrayList<>();
  private static final List<byte[]> contents = new ArrayList<>();

  @BeforeAll
  static void writeFiles() throws IOException {
    for (int i = 0; i < FILES; i++) {
      // About 200 KB each, one row group: small enough to be fetched whole.
      Path file =
          ParquetFiles.write(
              dir.resolve("part-" + i + ".parquet"), ParquetFiles.doubles(4), 6_000, 1 << 30, i);
      local.add(file);
      contents.add(Files.readAllBytes(file));
    }
  }

  private InMemoryObjectClient store() {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    for (int i = 0; i < FILES; i++) {
      store.put(ObjectLocation.of("bucket", key(i)), contents.get(i));
    }
    return store;
  }

  private static String key(int file) {
    return "table/data/part-" + file + ".parquet";
  }

  private static SeekwellInputFile input(S3SeekableInputStreamFactory factory, int file) {
    return SeekwellInputFile.of(factory, S3URI.of("bucket", key(file)), contents.get(file).length);
  }

  /** The footer's bytes and the 8-byte trailer after it: what a footer-only reader needs. */
  private static long footerBytes(int file) {
    byte[] bytes = contents.get(file);
    int metadata =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return metadata + 8L;
  }

  /** The GETs sent for {@code file} so far. */
  private static List<ByteRange> gets(InMemoryObjectClient store, int file) {
    return store.gets().stream()
        .filter(get -> get.location().key().equals(key(file)))
        .map(GetRequest::range)
        .toList();
  }

  private static void readFooter(S3SeekableInputStreamFactory factory, int file) throws Exception {
    long parsed = parsedFooters(factory);
    try (ParquetFileReader reader = ParquetFileReader.open(input(factory, file))) {
      assertEquals(6_000, reader.getRecordCount());
    }
    awaitParsed(factory, parsed);
  }

  private static void readWhole(S3SeekableInputStreamFactory factory, int file) throws Exception {
    long parsed = parsedFooters(factory);
    assertEquals(
        ParquetFiles.readColumns(new LocalInputFile(local.get(file)), ALL_COLUMNS),
        ParquetFiles.readColumns(input(factory, file), ALL_COLUMNS));
    awaitParsed(factory, parsed);
  }

  private static long parsedFooters(S3SeekableInputStreamFactory factory) {
    return factory.getMetrics().get(Metric.FORMAT_FOOTERS_PARSED);
  }

  /**
   * Waits until the plug-in has parsed (on its own threads) a footer more than the {@code before}
   * it had parsed before the read: by then, with the reader closed, what the reader did is learned.
   */
  private static void awaitParsed(S3SeekableInputStreamFactory factory, long before)
      throws Exception {
    Eventually.holds("a footer parsed", () -> parsedFooters(factory) > before);
  }

  @Test
  void footerOnlyOpensFetchOnlyAboutTheFooterWithOneGet() throws Exception {
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT)) {
      for (int file = 0; file < FILES; file++) {
        readFooter(factory, file);
        List<ByteRange> gets = gets(store, file);
        long length = contents.get(file).length;
        if (file == 0) {
          // Nothing known yet: the tail of the first guess, not the whole file.
          assertEquals(
              List.of(ByteRange.of(length - FooterOnlyHistory.COLD_FOOTER_GUESS, length - 1)),
              gets);
        } else {
          assertEquals(1, gets.size(), "file " + file + ": " + gets);
          assertEquals(length - 1, gets.get(0).end());
          long fetched = gets.get(0).length();
          assertTrue(
              fetched >= footerBytes(file) && fetched <= 1.5 * footerBytes(file),
              "file " + file + ": " + fetched + " bytes for a footer of " + footerBytes(file));
        }
      }
    }
  }

  @Test
  void filesReadWholeCostOneGetEachOnceAReaderReadData() throws Exception {
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT)) {
      for (int file = 0; file < FILES; file++) {
        readWhole(factory, file);
        // The first file was opened for its footer (nothing known yet), then fetched in full with
        // one more GET; every file after it is fetched whole at open.
        assertEquals(file == 0 ? 2 : 1, gets(store, file).size(), "file " + file);
      }
    }
  }

  @Test
  void announcedFilesAreFetchedWholeWithOneGetEachTheFirstIncluded() throws Exception {
    InMemoryObjectClient store = store();
    List<AnnouncedObject> task = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      task.add(AnnouncedObject.of(S3URI.of("bucket", key(file)), contents.get(file).length));
    }
    try (S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
        Announcement announcement = factory.announce(task)) {
      assertEquals(FILES, announcement.size());
      for (int file = 0; file < FILES; file++) {
        readWhole(factory, file);
        assertEquals(
            List.of(ByteRange.of(0, contents.get(file).length - 1)),
            gets(store, file),
            "file " + file);
      }
    }
  }

  @Test
  void aPrefixWhoseReadersTurnToDataIsFetchedWholeAgain() throws Exception {
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT)) {
      readFooter(factory, 0);
      readFooter(factory, 1);
      assertEquals(1, gets(store, 1).size());

      readWhole(factory, 2);
      assertEquals(2, gets(store, 2).size(), "predicted footer-only, then read whole");
      readWhole(factory, 3);
      assertEquals(
          List.of(ByteRange.of(0, contents.get(3).length - 1)), gets(store, 3), "fetched whole");
    }
  }

  @Test
  void withThePredictionOffSmallFilesAreFetchedWholeAtOpen() throws Exception {
    InMemoryObjectClient store = store();
    S3SeekableInputStreamConfiguration off =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("logicalio.parquet.footer.only.prediction", "false"), ""));
    try (S3SeekableInputStreamFactory factory = new S3SeekableInputStreamFactory(store, off)) {
      readFooter(factory, 0);
      readFooter(factory, 1);
      assertEquals(List.of(ByteRange.of(0, contents.get(1).length - 1)), gets(store, 1));
    }
  }
}
