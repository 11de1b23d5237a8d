package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.it.s3a.SeekwellS3aSetup;
import io.seekwell.parquet.ParquetFiles;
import io.seekwell.parquet.connector.SeekwellInputFile;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Each connector reading through a proxy that faults a quarter of the connections (stalls before
 * headers and mid-body, cuts with FIN and RST, slow first bytes): Iceberg's FileIO, the S3A stream
 * factory (with positioned reads from several threads on one stream) and parquet-java through
 * {@link SeekwellInputFile}. Every byte and every value read equals what was written.
 */
@WithS3Server
class FaultyNetworkConnectorsMinioTest {

  private static final int LENGTH = 20 * 1024 * 1024;
  private static final byte[] CONTENT = TestData.randomBytes(81, LENGTH);
  private static final List<String> COLUMNS = List.of("c1", "c4", "c9");

  private static S3TestBucket bucket;
  private static Path parquetFile;
  private FaultProxy proxy;

  @BeforeAll
  static void upload(S3TestBucket testBucket, @TempDir Path dir) throws IOException {
    bucket = testBucket;
    bucket.put("faulty.bin", CONTENT);
    parquetFile =
        ParquetFiles.write(
            dir.resolve("t.parquet"), ParquetFiles.doubles(10), 200_000, 2_000_000, 9);
    bucket
        .admin()
        .putObject(
            b -> b.bucket(bucket.name()).key("t.parquet"), RequestBody.fromFile(parquetFile));
  }

  @BeforeEach
  void startProxy() throws IOException {
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterEach
  void stopProxy() throws IOException {
    proxy.close();
  }

  private void faultAQuarter(ConnectionFault fault) {
    proxy.faultConnections(fault, 0.25, 100 + fault.ordinal());
  }

  private void assertSomeConnectionsWereFaulted() {
    assertTrue(
        proxy.faultedConnections() > 0, "no connection of " + proxy.connections() + " was faulted");
  }

  @ParameterizedTest(name = "Iceberg FileIO, {0} on a quarter of the connections")
  @EnumSource(ConnectionFault.class)
  void icebergFileIoReadsTheRightBytes(ConnectionFault fault) throws Exception {
    Map<String, String> properties = IcebergS3Properties.of(bucket.endpoint(), proxy.uri());
    properties.put("seekwell.client.stall.floor", "300ms");
    faultAQuarter(fault);
    try (SeekwellS3FileIO io = new SeekwellS3FileIO()) {
      io.initialize(properties);
      try (SeekableInputStream in =
          io.newInputFile("s3://" + bucket.name() + "/faulty.bin", LENGTH).newStream()) {
        Random random = new Random(fault.ordinal());
        for (int i = 0; i < 12; i++) {
          int length = 1 + random.nextInt(300_000);
          int position = random.nextInt(LENGTH - length);
          byte[] bytes = new byte[length];
          ((RangeReadable) in).readFully(position, bytes, 0, length);
          assertArrayEquals(Arrays.copyOfRange(CONTENT, position, position + length), bytes);
        }
        in.seek(12_000_000);
        byte[] sequential = new byte[1_500_000];
        int done = 0;
        while (done < sequential.length) {
          done += in.read(sequential, done, sequential.length - done);
        }
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 12_000_000, 13_500_000), sequential);
      }
    }
    assertSomeConnectionsWereFaulted();
  }

  @ParameterizedTest(name = "S3A, {0} on a quarter of the connections")
  @EnumSource(ConnectionFault.class)
  void s3aStreamsReadTheRightBytesFromSeveralThreads(ConnectionFault fault) throws Exception {
    Configuration conf = SeekwellS3aSetup.throughFaultProxy(bucket, proxy.uri());
    faultAQuarter(fault);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try (FileSystem fs = FileSystem.newInstance(URI.create("s3a://" + bucket.name() + "/"), conf);
        FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path("/faulty.bin"))) {
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random random = new Random(fault.ordinal() * 10L + t);
        readers.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 4; i++) {
                    int length = 1 + random.nextInt(300_000);
                    int position = random.nextInt(LENGTH - length);
                    byte[] bytes = new byte[length];
                    in.readFully(position, bytes, 0, length);
                    assertArrayEquals(
                        Arrays.copyOfRange(CONTENT, position, position + length), bytes);
                  }
                  return null;
                }));
      }
      for (Future<?> reader : readers) {
        reader.get(120, TimeUnit.SECONDS);
      }
      Map<String, Long> counters = in.getIOStatistics().counters();
      for (String name :
          List.of(
              "seekwell_retries",
              "seekwell_hedged_gets",
              "seekwell_hedges_won",
              "seekwell_stalled_gets_abandoned",
              "seekwell_bodies_resumed")) {
        assertTrue(counters.containsKey(name), () -> name + " missing from " + counters);
      }
    } finally {
      threads.shutdownNow();
    }
    assertSomeConnectionsWereFaulted();
  }

  @ParameterizedTest(name = "parquet-java, {0} on a quarter of the connections")
  @EnumSource(ConnectionFault.class)
  void parquetJavaReadsTheSameValues(ConnectionFault fault) throws Exception {
    ObjectClientConfiguration client =
        ObjectClientConfiguration.builder().stallFloor(Duration.ofMillis(300)).build();
    faultAQuarter(fault);
    try (S3AsyncClient s3 =
            bucket
                .endpoint()
                .configure(S3AsyncClient.builder())
                .endpointOverride(proxy.uri())
                .httpClientBuilder(SdkClients.nettyHttpClient(client))
                .overrideConfiguration(SdkClients.withoutSdkRetries())
                .build();
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(
                s3, S3SeekableInputStreamConfiguration.builder().client(client).build())) {
      SeekwellInputFile input = SeekwellInputFile.of(factory, S3URI.of(bucket.name(), "t.parquet"));
      assertEquals(
          ParquetFiles.readColumns(new LocalInputFile(parquetFile), COLUMNS),
          ParquetFiles.readColumns(input, COLUMNS));
    }
    assertSomeConnectionsWereFaulted();
  }
}
