package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.MeteredObjectClient;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

/** parquet-java reading 3 of 20 columns through a Seekwell stream with vectored reads. */
@WithS3Server
class ParquetProjectionMinioTest {

  private static final int MIB = 1024 * 1024;
  private static final List<String> PROJECTED = List.of("c2", "c7", "c15");

  @TempDir static Path dir;
  private static S3TestBucket bucket;
  private static S3AsyncClient s3;
  private static Path file;
  private static S3URI uri;
  private static String etag;

  @BeforeAll
  static void upload(S3TestBucket testBucket) throws IOException {
    bucket = testBucket;
    s3 = bucket.endpoint().configure(S3AsyncClient.builder()).build();
    file =
        ParquetFiles.write(
            dir.resolve("table.parquet"), ParquetFiles.doubles(20), 655_360, 13L * MIB, 3);
    uri = S3URI.of(bucket.name(), "tables/table.parquet");
    etag =
        bucket
            .admin()
            .putObject(b -> b.bucket(bucket.name()).key(uri.key()), RequestBody.fromFile(file))
            .eTag();
  }

  @AfterAll
  static void closeClient() {
    s3.close();
  }

  @Test
  void threeOfTwentyColumnsCostTheirCoalescedRunsAndMatchALocalRead() throws Exception {
    List<ByteRange> chunks = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      for (BlockMetaData rowGroup : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData column : rowGroup.getColumns()) {
          if (PROJECTED.contains(column.getPath().toDotString())) {
            chunks.add(ByteRange.ofLength(column.getStartingPos(), column.getTotalSize()));
          }
        }
      }
    }
    long length = Files.size(file);
    ByteRange tail = ByteRange.of(length - (MIB + 32 * 1024), length - 1);
    List<ByteRange> runs = chunks.stream().filter(chunk -> !tail.contains(chunk)).toList();

    Metrics metrics = new Metrics();
    try (S3SeekableInputStreamFactory factory =
        new S3SeekableInputStreamFactory(
            new MeteredObjectClient(new S3SdkObjectClient(s3), metrics),
            // Requests are counted: no hedged copies, which a busy machine's slow answers could
            // draw.
            S3SeekableInputStreamConfiguration.DEFAULT.withClient(
                ObjectClientConfiguration.builder().hedgeMaxCopies(0).build()))) {
      List<Long> remote =
          ParquetFiles.readColumns(
              SeekwellInputFile.of(factory, uri, ObjectMetadata.of(length, etag)), PROJECTED);
      assertEquals(ParquetFiles.readColumns(new LocalInputFile(file), PROJECTED), remote);
      // Every column chunk came through vectored reads (fetched ahead), none on demand.
      assertEquals(0, factory.getMetrics().get(Metric.DEMAND_GET_REQUESTS));

      // One GET for the tail, one per column run not already in it (runs are more than the 1 MiB
      // merge gap apart here, so each chunk is its own run).
      assertEquals(1 + runs.size(), metrics.get(Metric.GET_REQUESTS));
      long needed = chunks.stream().mapToLong(ByteRange::length).sum() + tail.length();
      long fetched = metrics.get(Metric.BYTES_RECEIVED);
      assertTrue(fetched <= 1.25 * needed, fetched + " bytes fetched for " + needed + " needed");
      assertEquals(0, metrics.get(Metric.HEAD_REQUESTS));
    }
  }
}
