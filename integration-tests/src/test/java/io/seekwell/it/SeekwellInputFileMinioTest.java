package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.metrics.Metric;
import io.seekwell.parquet.ParquetFiles;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** parquet-java reading through {@link SeekwellInputFile}, against MinIO. */
@WithS3Server
class SeekwellInputFileMinioTest {

  @Test
  void parquetJavaReadsTheSameValuesWithOneHeadForTheWholeFile(
      S3TestBucket bucket, @TempDir Path dir) throws Exception {
    Path file =
        ParquetFiles.write(
            dir.resolve("t.parquet"), ParquetFiles.doubles(10), 50_000, 1_000_000, 5);
    bucket
        .admin()
        .putObject(b -> b.bucket(bucket.name()).key("t.parquet"), RequestBody.fromFile(file));
    S3URI uri = S3URI.of(bucket.name(), "t.parquet");
    List<String> columns = List.of("c1", "c4", "c9");
    try (S3AsyncClient s3 = bucket.endpoint().configure(S3AsyncClient.builder()).build();
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
      SeekwellInputFile input = SeekwellInputFile.of(factory, uri);
      assertEquals(Files.size(file), input.getLength());
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(file), columns),
          ParquetFiles.readColumns(input, columns));
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(file), List.of("c0")),
          ParquetFiles.readColumns(input, List.of("c0")));
      assertEquals(1, factory.getMetrics().get(Metric.HEAD_REQUESTS));
      assertEquals(uri.toString(), input.toString());
    }
  }
}
