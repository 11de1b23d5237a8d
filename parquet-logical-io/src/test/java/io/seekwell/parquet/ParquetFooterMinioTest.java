package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.MeteredObjectClient;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** The footer fetched at open of a Parquet file, against MinIO. */
@WithS3Server
class ParquetFooterMinioTest {

  private static final int MIB = 1024 * 1024;

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

  private static S3SeekableInputStreamFactory factory(
      Metrics metrics, Map<String, String> settings) {
    return new S3SeekableInputStreamFactory(
        new MeteredObjectClient(new S3SdkObjectClient(s3), metrics),
        S3SeekableInputStreamConfiguration.fromConfiguration(
                ConnectorConfiguration.of(settings, "seekwell."))
            // Requests are counted: no hedged copies, which a busy machine's slow answers could
            // draw.
            .withClient(ObjectClientConfiguration.builder().hedgeMaxCopies(0).build()));
  }

  private static S3URI upload(Path file, String key) {
    bucket.admin().putObject(b -> b.bucket(bucket.name()).key(key), RequestBody.fromFile(file));
    return S3URI.of(bucket.name(), key);
  }

  /** Waits until the plug-in has parsed (on its own threads) the footer of the one file read. */
  private static void awaitFooter(S3SeekableInputStreamFactory factory) throws Exception {
    Eventually.holds(
        "the footer parsed", () -> factory.getMetrics().get(Metric.FORMAT_FOOTERS_PARSED) == 1);
  }

  @Test
  void a100MiBFileCostsOneGetForItsFooterAndParquetJavaReadsItWithNoOther(@TempDir Path dir)
      throws Exception {
    Path file =
        ParquetFiles.write(
            dir.resolve("big.parquet"), ParquetFiles.doubles(20), 655_360, 13L * MIB, 7);
    long length = Files.size(file);
    assertTrue(length > 100 * MIB, length + " bytes");
    S3URI uri = upload(file, "tables/big.parquet");
    Metrics metrics = new Metrics();
    try (S3SeekableInputStreamFactory factory = factory(metrics, Map.of())) {
      OpenStreamInformation known =
          OpenStreamInformation.builder()
              .objectMetadata(
                  ObjectMetadata.of(
                      length,
                      bucket
                          .admin()
                          .headObject(b -> b.bucket(bucket.name()).key(uri.key()))
                          .eTag()))
              .build();
      try (S3SeekableInputStream stream = factory.createStream(uri, known)) {
        assertEquals(length, stream.length());
        awaitFooter(factory);
        assertEquals(1, metrics.get(Metric.GET_REQUESTS));
        assertEquals(0, metrics.get(Metric.HEAD_REQUESTS));
      }
      ParquetMetadata local;
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
        local = reader.getFooter();
      }
      assertEquals(8, local.getBlocks().size());
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              SeekwellInputFile.of(factory, uri, known.objectMetadata().orElseThrow()))) {
        assertEquals(ParquetMetadata.toJSON(local), ParquetMetadata.toJSON(reader.getFooter()));
      }
      assertEquals(1, metrics.get(Metric.GET_REQUESTS), "the footer came from the cache");
      assertEquals(0, metrics.get(Metric.HEAD_REQUESTS));
    }
  }

  @Test
  void aFooterLongerThanTheTailCostsExactlyOneMoreGet(@TempDir Path dir) throws Exception {
    // 600 columns in 4 row groups: a footer of well over the 64 KiB tail set here.
    Path file =
        ParquetFiles.write(dir.resolve("wide.parquet"), ParquetFiles.doubles(600), 400, 50_000, 9);
    S3URI uri = upload(file, "tables/wide.parquet");
    Metrics metrics = new Metrics();
    Map<String, String> smallTail =
        Map.of(
            "seekwell.logicalio.parquet.footer.prefetch.size", "64KB",
            "seekwell.logicalio.small.object.prefetch", "false");
    try (S3SeekableInputStreamFactory factory = factory(metrics, smallTail);
        S3SeekableInputStream stream = factory.createStream(uri)) {
      assertEquals(Files.size(file), stream.length());
      awaitFooter(factory);
      byte[] bytes = Files.readAllBytes(file);
      int metadataLength = ParquetFooter.metadataLength(bytes, uri.toString());
      assertTrue(metadataLength > 64 * 1024, metadataLength + " bytes of footer");
      assertEquals(0, factory.getMetrics().get(Metric.FORMAT_FOOTERS_UNPARSED));
      assertEquals(2, metrics.get(Metric.GET_REQUESTS));
      assertEquals(
          1, metrics.get(Metric.HEAD_REQUESTS), metrics.snapshot() + " / " + factory.getMetrics());
    }
  }
}
