package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An Iceberg table (JDBC catalog on an in-memory H2) whose metadata and data live in MinIO, written
 * with Iceberg's own {@link S3FileIO} and read back with it and with {@link SeekwellS3FileIO}: the
 * same rows, with fewer GETs through Seekwell.
 */
@WithS3Server
class SeekwellS3FileIOMinioTest {

  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 40_000;
  private static String metadataLocation;
  private static Map<String, String> properties;

  @BeforeAll
  static void writeTable(S3TestBucket bucket) throws IOException {
    properties = IcebergS3Properties.of(bucket.endpoint());
    metadataLocation =
        EventsTable.write(
                bucket, properties, "events", FileFormat.PARQUET, FILES, ROWS_PER_FILE, 17)
            .metadataLocation();
  }

  @Test
  void readsTheSameRowsAsS3FileIoWithFewerGets(S3TestBucket bucket) throws IOException {
    GetCounter icebergGets = new GetCounter();
    IcebergReads.Reads iceberg;
    try (S3FileIO io = new S3FileIO(() -> GetCounter.countingClient(bucket, icebergGets))) {
      io.initialize(properties);
      iceberg = IcebergReads.wholeThenProjected(metadataLocation, io, ROWS_PER_FILE + 1234);
    }

    GetCounter seekwellGets = new GetCounter();
    IcebergReads.Reads seekwell;
    MetricsSnapshot seekwellMetrics;
    long bytesBefore = s3Statistics().getBytesRead();
    int operationsBefore = s3Statistics().getReadOps();
    try (SeekwellS3FileIO io =
        new SeekwellS3FileIO(() -> GetCounter.countingClient(bucket, seekwellGets))) {
      io.initialize(properties);
      seekwell = IcebergReads.wholeThenProjected(metadataLocation, io, ROWS_PER_FILE + 1234);
      seekwellMetrics = io.seekwellMetrics();
    }
    // Seekwell's own counters for the FileIO count the GETs its client sent.
    assertEquals(seekwellGets.gets.get(), seekwellMetrics.get(Metric.GET_REQUESTS));
    // Iceberg's read.bytes and read.operations, reported to Hadoop's statistics of scheme s3.
    assertTrue(s3Statistics().getBytesRead() - bytesBefore > FILES * ROWS_PER_FILE * 8L);
    assertTrue(s3Statistics().getReadOps() > operationsBefore);

    assertEquals(FILES * ROWS_PER_FILE, iceberg.whole().size());
    assertEquals(FILES * ROWS_PER_FILE - ROWS_PER_FILE - 1234, iceberg.projected().size());
    assertEquals(iceberg, seekwell);
    System.out.printf(
        "Iceberg table read (all rows, then a projection with a filter): S3FileIO %d GETs,"
            + " SeekwellS3FileIO %d GETs%n",
        icebergGets.gets.get(), seekwellGets.gets.get());
    assertTrue(
        seekwellGets.gets.get() < icebergGets.gets.get(),
        "Seekwell " + seekwellGets.gets.get() + " GETs, Iceberg " + icebergGets.gets.get());
  }

  /** Iceberg's read.bytes and read.operations counted over {@code reads} on {@code io}. */
  private static long[] icebergMetricsOf(FileIO io, String location, StreamReads reads)
      throws IOException {
    long bytes = s3Statistics().getBytesRead();
    int operations = s3Statistics().getReadOps();
    try (SeekableInputStream in = io.newInputFile(location).newStream()) {
      reads.apply(in);
    }
    return new long[] {
      s3Statistics().getBytesRead() - bytes, s3Statistics().getReadOps() - operations
    };
  }

  /** Reads through an Iceberg stream. */
  private interface StreamReads {
    void apply(SeekableInputStream in) throws IOException;
  }

  @Test
  void icebergsReadMetricsCountStreamReadsAsIcebergsOwnStreamDoesAndRangeReadsToo()
      throws IOException {
    String location = metadataLocation;
    StreamReads streamReads =
        in -> {
          in.read();
          in.read(new byte[1000], 0, 1000);
          in.seek(20);
          in.read(new byte[300]);
          in.read();
        };
    try (S3FileIO iceberg = new S3FileIO();
        SeekwellS3FileIO seekwell = new SeekwellS3FileIO()) {
      iceberg.initialize(properties);
      seekwell.initialize(properties);
      long[] theirs = icebergMetricsOf(iceberg, location, streamReads);
      assertArrayEquals(new long[] {1302, 4}, theirs);
      assertArrayEquals(theirs, icebergMetricsOf(seekwell, location, streamReads));

      // Range reads count too (Iceberg's own stream leaves readFully and readTail out).
      long[] ranges =
          icebergMetricsOf(
              seekwell,
              location,
              in -> {
                RangeReadable ranged = (RangeReadable) in;
                ranged.readFully(10, new byte[400], 0, 400);
                ranged.readTail(new byte[100], 0, 100);
              });
      assertArrayEquals(new long[] {500, 2}, ranges);
    }
  }

  @Test
  void worksAsTheCatalogsIoImplFromProperties(S3TestBucket bucket) throws IOException {
    Map<String, String> withSeekwell = new HashMap<>(properties);
    withSeekwell.put(CatalogProperties.FILE_IO_IMPL, SeekwellS3FileIO.class.getName());
    withSeekwell.put("seekwell.physicalio.max.memory.limit", "64MB");
    FileIO io =
        org.apache.iceberg.CatalogUtil.loadFileIO(
            SeekwellS3FileIO.class.getName(), withSeekwell, null);
    try (io) {
      assertTrue(io instanceof SeekwellS3FileIO);
      assertEquals(FILES * ROWS_PER_FILE, rows(io, List.of("id"), null).size());
      InputFile missing = io.newInputFile("s3a://" + bucket.name() + "/wh/missing.parquet");
      assertFalse(missing.exists());
      assertThrows(NotFoundException.class, missing::getLength);
      assertThrows(NotFoundException.class, missing::newStream);
    }
  }

  @Test
  void aBadSeekwellSettingNamesTheKey() {
    Map<String, String> bad = new HashMap<>(properties);
    bad.put("seekwell.physicalio.max.memory.limit", "lots");
    try (SeekwellS3FileIO io = new SeekwellS3FileIO()) {
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> io.initialize(bad));
      assertTrue(
          error.getMessage().contains("seekwell.physicalio.max.memory.limit"), error.getMessage());
    }
  }

  private static List<String> rows(FileIO io, List<String> columns, Expression filter)
      throws IOException {
    return IcebergReads.rows(metadataLocation, io, columns, filter);
  }

  @SuppressWarnings("deprecation") // the statistics Iceberg's Hadoop metrics context reports to
  private static org.apache.hadoop.fs.FileSystem.Statistics s3Statistics() {
    return org.apache.hadoop.fs.FileSystem.getStatistics("s3", null);
  }
}
