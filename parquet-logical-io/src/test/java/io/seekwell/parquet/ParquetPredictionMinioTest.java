package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    return ParquetFiles.readColumns(
        new SeekwellInputFileForTests(
            factory, uri, OpenStreamInformation.ofDefaults(), Files.size(file), false),
        columns);
  }

  @Test
  void aSecondFileWithTheSameSchemaIsReadFromPrefetchedColumns() throws Exception {
    Path first = writeAndUpload("part-0.parquet", 1);
    Path second = writeAndUpload("part-1.parquet", 2);
    Path third = writeAndUpload("part-2.parquet", 3);
    S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(
            new S3SdkObjectClient(s3, ObjectClientConfiguration.defaults()),
            S3SeekableInputStreamConfiguration.DEFAULT);
    try {
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(first), PROJECTED),
          read(factory, first, "part-0.parquet", PROJECTED));
      MetricsSnapshot afterFirst = factory.getMetrics();
      // Nothing was known of the schema: the first row group's three columns were read on demand
      // (later row groups of the same file are already prefetched from what was learned).
      assertTrue(afterFirst.get(Metric.DEMAND_GET_REQUESTS) >= 3, afterFirst::toString);

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
}
