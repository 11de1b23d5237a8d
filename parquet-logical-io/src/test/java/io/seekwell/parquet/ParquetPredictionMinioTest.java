package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** Columns learned from one file are prefetched for the next file with the same schema. */
@WithS3Server
class ParquetPredictionMinioTest {

  private static final List<String> PROJECTED = List.of("c2", "c7", "c15");

  @TempDir static Path dir;
  private static S3TestBucket bucket;
  private static S3AsyncClient s3;

  @BeforeAll
  static void client(S3TestBucket testBucket) {
    bucket = testBucket;
    s3 = bucket.endpoint().configure(S3AsyncClient.builder()).build();
  }

  @AfterAll
  static void closeClient() {
    s3.close();
  }

  private static Path writeAndUpload(String name, long seed) throws IOException {
    Path file =
        ParquetFiles.write(dir.resolve(name), ParquetFiles.doubles(20), 100_000, 2_000_000, seed);
    bucket.admin().putObject(b -> b.bucket(bucket.name()).key(name), RequestBody.fromFile(file));
    return file;
  }

  private static List<Long> read(
      S3SeekableInputStreamFactory factory, Path file, String name, List<String> columns)
      throws IOException {
    S3URI uri = S3URI.of(bucket.name(), name);
    // Without vectored reads: column chunks are read on demand unless they were prefetched.
    return ParquetFiles.readColumns(SeekwellInputFile.of(factory, uri), columns, false);
  }

  @Test
  void aSecondFileWithTheSameSchemaIsReadFromPrefetchedColumns() throws Exception {
    Path first = writeAndUpload("part-0.parquet", 1);
    Path second = writeAndUpload("part-1.parquet", 2);
    Path third = writeAndUpload("part-2.parquet", 3);
    S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(
            new S3SdkObjectClient(s3), S3SeekableInputStreamConfiguration.DEFAULT);
    try {
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(first), PROJECTED),
          read(factory, first, "part-0.parquet", PROJECTED));
      MetricsSnapshot afterFirst = factory.getMetrics();
      // Nothing was known of the schema: only the first row group's three chunks were read on
      // demand; each column, once read, was prefetched one row group ahead of the reader.
      assertEquals(3, afterFirst.get(Metric.DEMAND_GET_REQUESTS), afterFirst::toString);

      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(second), PROJECTED),
          read(factory, second, "part-1.parquet", PROJECTED));
      MetricsSnapshot secondFile = factory.getMetrics().minus(afterFirst);
      assertEquals(0, secondFile.get(Metric.DEMAND_GET_REQUESTS), secondFile::toString);

      // A reader that wants one of the three learned columns: the other two were over-read.
      MetricsSnapshot beforeThird = factory.getMetrics();
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(third), List.of("c2")),
          read(factory, third, "part-2.parquet", List.of("c2")));
      // Closing drops every cached block; prefetched blocks nobody read are counted then.
      factory.close();
      MetricsSnapshot thirdFile = factory.getMetrics().minus(beforeThird);
      assertTrue(thirdFile.get(Metric.PREFETCHED_BYTES_UNUSED) > 0, thirdFile::toString);
    } finally {
      factory.close();
    }
  }

  private static S3SeekableInputStreamFactory factoryWithMode(String mode) {
    return new S3SeekableInputStreamFactory(
        new S3SdkObjectClient(s3),
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("seekwell.logicalio.parquet.prefetch.mode", mode), "seekwell.")));
  }

  @Test
  void modeOffPrefetchesNoColumns() throws Exception {
    Path first = writeAndUpload("off-0.parquet", 4);
    Path second = writeAndUpload("off-1.parquet", 5);
    try (S3SeekableInputStreamFactory factory = factoryWithMode("off")) {
      read(factory, first, "off-0.parquet", PROJECTED);
      MetricsSnapshot afterFirst = factory.getMetrics();
      read(factory, second, "off-1.parquet", PROJECTED);
      MetricsSnapshot secondFile = factory.getMetrics().minus(afterFirst);
      long rowGroups;
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(second))) {
        rowGroups = reader.getRowGroups().size();
      }
      // Only the tail is prefetched; each projected chunk is read on demand.
      assertTrue(secondFile.get(Metric.DEMAND_GET_REQUESTS) >= rowGroups, secondFile::toString);
      assertTrue(
          secondFile.get(Metric.PREFETCHED_BYTES) <= 1024 * 1024 + 32 * 1024, secondFile::toString);
    }
  }

  @Test
  void modeAllPrefetchesEveryRowGroupAtTheFirstReadOfAColumn() throws Exception {
    Path first = writeAndUpload("all-0.parquet", 6);
    Path second = writeAndUpload("all-1.parquet", 7);
    try (S3SeekableInputStreamFactory factory = factoryWithMode("ALL")) {
      read(factory, first, "all-0.parquet", PROJECTED);
      MetricsSnapshot afterFirst = factory.getMetrics();
      // Each column, once read in the first row group, was prefetched for every later one.
      assertEquals(3, afterFirst.get(Metric.DEMAND_GET_REQUESTS), afterFirst::toString);
      S3URI uri = S3URI.of(bucket.name(), "all-1.parquet");
      long projectedBytes = 0;
      long firstChunk = Long.MAX_VALUE;
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(second))) {
        for (BlockMetaData rowGroup : reader.getFooter().getBlocks()) {
          for (ColumnChunkMetaData column : rowGroup.getColumns()) {
            if (PROJECTED.contains(column.getPath().toDotString())) {
              projectedBytes += column.getTotalSize();
              firstChunk = Math.min(firstChunk, column.getStartingPos());
            }
          }
        }
      }
      try (S3SeekableInputStream stream = factory.createStream(uri)) {
        Eventually.holds(
            "the footer of " + uri + " parsed",
            () -> factory.getMetrics().minus(afterFirst).get(Metric.FORMAT_FOOTERS_PARSED) == 1);
        long atOpen = factory.getMetrics().minus(afterFirst).get(Metric.PREFETCHED_BYTES);
        assertTrue(atOpen < projectedBytes, "only the tail at open: " + atOpen);
        stream.seek(firstChunk);
        stream.read();
        MetricsSnapshot afterFirstRead = factory.getMetrics().minus(afterFirst);
        assertTrue(
            afterFirstRead.get(Metric.PREFETCHED_BYTES) >= projectedBytes,
            afterFirstRead + " vs " + projectedBytes);
        assertEquals(0, afterFirstRead.get(Metric.DEMAND_GET_REQUESTS));
        assertEquals(Files.size(second), stream.length());
      }
    }
  }
}
