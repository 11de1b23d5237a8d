package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.CustomerKey;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The disk tier under the Iceberg FileIO, against MinIO (over TLS, for SSE-C): a later FileIO on
 * the same directory, as a new JVM would have, reads Iceberg's files with no GET, only the files it
 * is told to keep, and never serves an SSE-C file to a reader without the key. The FileIOs of one
 * JVM share one slot of the directory. A FileIO whose directory cannot be used reads from S3.
 */
@WithS3Server(tls = true)
class SeekwellS3FileIODiskCacheMinioTest {

  @TempDir Path directory;

  private final Map<String, byte[]> written = new HashMap<>();

  private Map<String, String> properties(String files) {
    Map<String, String> properties = new HashMap<>();
    properties.put("seekwell.physicalio.disk.cache.dir", directory.toString());
    properties.put("seekwell.iceberg.disk.cache.files", files);
    return properties;
  }

  @Test
  void aLaterFileIoReadsIcebergFilesFromDiskWithNoGet(S3TestBucket bucket) throws IOException {
    String manifest = write(bucket, "t/metadata/snap-1-a.avro", TestData.randomBytes(1, 90_000));
    String data = write(bucket, "t/data/00000-0.parquet", TestData.randomBytes(2, 2_500_000));

    long cold = readAll(bucket, properties("all"), manifest, data);
    assertTrue(cold >= 2, "the first FileIO fetches both files: " + cold + " GETs");
    assertEquals(0, readAll(bucket, properties("all"), manifest, data), "GETs of a warm disk");
  }

  @Test
  void twoFileIosOfOneJvmShareOneSlot(S3TestBucket bucket) throws IOException {
    String manifest = write(bucket, "s/metadata/snap-3-c.avro", TestData.randomBytes(8, 90_000));
    try (SeekwellS3FileIO first = new SeekwellS3FileIO(() -> client(bucket));
        SeekwellS3FileIO second = new SeekwellS3FileIO(() -> client(bucket))) {
      first.initialize(properties("all"));
      second.initialize(properties("all"));
      for (SeekwellS3FileIO io : List.of(first, second)) {
        try (InputStream in = io.newInputFile(manifest, 90_000).newStream()) {
          assertArrayEquals(written.get(manifest), in.readAllBytes());
        }
        assertEquals(0, io.seekwellMetrics().get(Metric.DISK_UNAVAILABLE));
      }
      try (Stream<Path> entries = Files.list(directory)) {
        assertEquals(
            List.of("slot-0"),
            entries.map(entry -> entry.getFileName().toString()).toList(),
            "one slot for both FileIOs");
      }
    }
  }

  @Test
  void metadataOnlyKeepsManifestsButNotDataFiles(S3TestBucket bucket) throws IOException {
    String manifest = write(bucket, "m/metadata/0-m0.avro", TestData.randomBytes(3, 90_000));
    String data = write(bucket, "m/data/00000-1.parquet", TestData.randomBytes(4, 300_000));
    readAll(bucket, properties("metadata"), manifest, data);
    assertEquals(0, readAll(bucket, properties("metadata"), manifest), "the manifest's GETs");
    assertTrue(readAll(bucket, properties("metadata"), data) > 0, "the data file is fetched again");
  }

  @Test
  void anSseCustomerKeyFileIsNeverServedFromDiskToAReaderWithoutTheKey(S3TestBucket bucket)
      throws IOException {
    CustomerKey key = CustomerKey.of(TestData.randomBytes(5, 32));
    Map<String, String> withKey = properties("all");
    withKey.put(S3FileIOProperties.SSE_TYPE, S3FileIOProperties.SSE_TYPE_CUSTOM);
    withKey.put(S3FileIOProperties.SSE_KEY, key.base64Key());
    withKey.put(S3FileIOProperties.SSE_MD5, key.base64KeyMd5());
    byte[] content = TestData.randomBytes(6, 200_000);
    String location = "s3://" + bucket.name() + "/secret/f.parquet";
    try (S3FileIO writer = new S3FileIO(() -> client(bucket))) {
      writer.initialize(withKey);
      try (OutputStream out = writer.newOutputFile(location).create()) {
        out.write(content);
      }
    }
    written.put(location, content);
    assertTrue(readAll(bucket, withKey, location) > 0);
    try (SeekwellS3FileIO io = new SeekwellS3FileIO(() -> client(bucket))) {
      io.initialize(properties("all"));
      assertThrows(
          IOException.class,
          () -> {
            try (InputStream in = io.newInputFile(location, content.length).newStream()) {
              in.readAllBytes();
            }
          });
    }
    assertEquals(0, readAll(bucket, withKey, location), "with the key, from disk");
  }

  @Test
  void aDirectoryThatCannotBeCreatedLeavesTheFileIoReadingFromS3(S3TestBucket bucket)
      throws IOException {
    String manifest = write(bucket, "u/metadata/snap-2-b.avro", TestData.randomBytes(7, 90_000));
    Map<String, String> properties = properties("all");
    Path file = Files.write(directory.resolve("file"), new byte[] {1});
    properties.put("seekwell.physicalio.disk.cache.dir", file.resolve("cache").toString());
    for (int fileIo = 0; fileIo < 2; fileIo++) {
      MetricsSnapshot metrics = readAllCounting(bucket, properties, manifest);
      assertEquals(1, metrics.get(Metric.DISK_UNAVAILABLE), metrics::toString);
      assertTrue(metrics.get(Metric.GET_REQUESTS) > 0, "every FileIO fetches the file");
      assertEquals(0, metrics.get(Metric.DISK_BYTES_WRITTEN), metrics::toString);
    }
  }

  private String write(S3TestBucket bucket, String key, byte[] content) {
    bucket.put(key, content);
    String location = "s3://" + bucket.name() + "/" + key;
    written.put(location, content);
    return location;
  }

  /** Reads each file whole through a new FileIO, checking its bytes; returns the GETs it sent. */
  private long readAll(S3TestBucket bucket, Map<String, String> properties, String... files)
      throws IOException {
    return readAllCounting(bucket, properties, files).get(Metric.GET_REQUESTS);
  }

  /** Reads each file whole through a new FileIO, checking its bytes; returns its counters. */
  private MetricsSnapshot readAllCounting(
      S3TestBucket bucket, Map<String, String> properties, String... files) throws IOException {
    try (SeekwellS3FileIO io = new SeekwellS3FileIO(() -> client(bucket))) {
      io.initialize(properties);
      long kept = 0;
      for (String file : files) {
        byte[] expected = written.get(file);
        try (InputStream in = io.newInputFile(file, expected.length).newStream()) {
          assertArrayEquals(expected, in.readAllBytes(), file);
        }
        boolean all = "all".equals(properties.get("seekwell.iceberg.disk.cache.files"));
        kept += all || file.contains("/metadata/") ? expected.length : 0;
      }
      awaitOnDisk(io, kept);
      return io.seekwellMetrics();
    }
  }

  /**
   * Waits (up to a minute) until {@code io}'s disk tier has the {@code kept} bytes it read, from
   * disk or written there, unless it has no disk tier: a block is queued for the disk only after
   * its readers woke, so closing the FileIO right after a read could drop its writes.
   */
  private static void awaitOnDisk(SeekwellS3FileIO io, long kept) {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (true) {
      MetricsSnapshot metrics = io.seekwellMetrics();
      if (metrics.get(Metric.DISK_UNAVAILABLE) > 0
          || metrics.get(Metric.DISK_BYTES_WRITTEN) + metrics.get(Metric.DISK_BYTES_READ) >= kept) {
        return;
      }
      assertTrue(System.nanoTime() - deadline < 0, "within a minute, on disk: " + metrics);
      Thread.yield();
    }
  }

  private static S3Client client(S3TestBucket bucket) {
    Apache5HttpClient.Builder http = Apache5HttpClient.builder();
    bucket.endpoint().certificate().ifPresent(c -> http.tlsTrustManagersProvider(c::trustManagers));
    return bucket.endpoint().configure(S3Client.builder()).httpClientBuilder(http).build();
  }
}
