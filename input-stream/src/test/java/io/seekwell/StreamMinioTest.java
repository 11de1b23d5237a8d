package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/** The stream against a real MinIO, with request counts asserted exactly at the client. */
@WithS3Server
class StreamMinioTest {

  private static final int MIB = 1024 * 1024;
  private static final int LENGTH = 24 * MIB;
  private static final byte[] CONTENT = TestData.randomBytes(21, LENGTH);

  private static S3TestBucket bucket;
  private static S3AsyncClient s3;
  private static S3URI uri;
  private static String etag;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    uri = S3URI.of(bucket.name(), "stream/object.bin");
    etag = bucket.put(uri.key(), CONTENT);
    s3 =
        bucket
            .endpoint()
            .configure(S3AsyncClient.builder())
            .httpClientBuilder(
                SdkClients.nettyHttpClient(S3SeekableInputStreamConfiguration.DEFAULT.client()))
            .overrideConfiguration(SdkClients.withoutSdkRetries())
            .build();
  }

  @AfterAll
  static void closeClient() {
    s3.close();
  }

  /**
   * Without hedging: the tests count requests, and on a busy machine a cold client's first answer
   * can come after the cold hedge deadline, when a copy would count as one more request.
   */
  private static final ObjectClientConfiguration NO_HEDGING =
      ObjectClientConfiguration.builder().hedgeMaxCopies(0).build();

  /** Reads' own misses are not widened by the link, which the tests cannot control. */
  private static final PhysicalIOConfiguration FIXED_MISSES =
      PhysicalIOConfiguration.builder().missMaxBytes(64 * 1024).build();

  private static S3SeekableInputStreamFactory newFactory() {
    return new S3SeekableInputStreamFactory(
        s3,
        S3SeekableInputStreamConfiguration.builder()
            .client(NO_HEDGING)
            .physicalIO(FIXED_MISSES)
            .build());
  }

  /** Records every GET the stream sends. */
  private static final class Recorder implements RequestCallback {
    final List<ByteRange> gets = new CopyOnWriteArrayList<>();
    final List<S3URI> heads = new CopyOnWriteArrayList<>();

    @Override
    public void onGetRequest(S3URI target, ByteRange range) {
      gets.add(range);
    }

    @Override
    public void onHeadRequest(S3URI target) {
      heads.add(target);
    }
  }

  @Test
  void openWithKnownLengthAndEtagSendsNoHead() throws Exception {
    try (S3SeekableInputStreamFactory factory = newFactory()) {
      OpenStreamInformation known =
          OpenStreamInformation.builder().objectMetadata(ObjectMetadata.of(LENGTH, etag)).build();
      try (S3SeekableInputStream stream = factory.createStream(uri, known)) {
        assertEquals(CONTENT[0] & 0xFF, stream.read());
      }
      assertEquals(0, factory.getMetrics().get(Metric.HEAD_REQUESTS));
      assertEquals(1, factory.getMetrics().get(Metric.GET_REQUESTS));
    }
  }

  @Test
  void twoStreamsShareOneHeadAndCachedBytes() throws Exception {
    try (S3SeekableInputStreamFactory factory = newFactory()) {
      byte[] first = new byte[3 * MIB];
      try (S3SeekableInputStream stream = factory.createStream(uri)) {
        stream.readFully(MIB, first, 0, first.length);
      }
      long getsAfterFirst = factory.getMetrics().get(Metric.GET_REQUESTS);
      Recorder recorder = new Recorder();
      byte[] second = new byte[3 * MIB];
      try (S3SeekableInputStream stream =
          factory.createStream(
              uri, OpenStreamInformation.builder().requestCallback(recorder).build())) {
        stream.readFully(MIB, second, 0, second.length);
        stream.seek(MIB + 100);
        assertEquals(CONTENT[MIB + 100] & 0xFF, stream.read());
      }
      assertArrayEquals(Arrays.copyOfRange(CONTENT, MIB, 4 * MIB), second);
      assertEquals(1, factory.getMetrics().get(Metric.HEAD_REQUESTS));
      assertEquals(1, getsAfterFirst);
      assertEquals(getsAfterFirst, factory.getMetrics().get(Metric.GET_REQUESTS));
      assertEquals(List.of(), recorder.gets);
      assertEquals(List.of(), recorder.heads);
    }
  }

  @Test
  void aOneByteReadIsOneGetOf64KiB() throws Exception {
    try (S3SeekableInputStreamFactory factory = newFactory()) {
      Recorder recorder = new Recorder();
      try (S3SeekableInputStream stream =
          factory.createStream(
              uri, OpenStreamInformation.builder().requestCallback(recorder).build())) {
        stream.seek(10 * MIB + 7);
        assertEquals(CONTENT[10 * MIB + 7] & 0xFF, stream.read());
      }
      assertEquals(List.of(ByteRange.ofLength(10 * MIB + 7, 64 * 1024)), recorder.gets);
      assertEquals(1, factory.getMetrics().get(Metric.GET_REQUESTS));
      assertEquals(64 * 1024, factory.getMetrics().get(Metric.BYTES_RECEIVED));
    }
  }

  @Test
  void a256MiBScanAt64MiBTakesGetsOfASixteenthOfTheLimitAndFetchesEveryByteOnce(
      S3TestBucket testBucket) throws Exception {
    int length = 256 * MIB;
    byte[] content = TestData.randomBytes(22, length);
    S3URI scan = S3URI.of(testBucket.name(), "stream/scan.bin");
    testBucket.put(scan.key(), content);
    long limit = 64L * MIB;
    S3SeekableInputStreamConfiguration bounded =
        S3SeekableInputStreamConfiguration.builder()
            .physicalIO(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(limit))
            .client(NO_HEDGING)
            .build();
    try (S3SeekableInputStreamFactory factory = new S3SeekableInputStreamFactory(s3, bounded)) {
      Recorder recorder = new Recorder();
      byte[] buffer = new byte[64 * 1024];
      try (S3SeekableInputStream stream =
          factory.createStream(
              scan,
              OpenStreamInformation.builder()
                  .inputPolicy(InputPolicy.SEQUENTIAL)
                  .requestCallback(recorder)
                  .build())) {
        for (int offset = 0; offset < length; offset += buffer.length) {
          assertEquals(buffer.length, stream.read(buffer, 0, buffer.length));
          if (!Arrays.equals(buffer, 0, buffer.length, content, offset, offset + buffer.length)) {
            throw new AssertionError("wrong bytes at " + offset);
          }
        }
        assertEquals(-1, stream.read());
      }
      long gets = factory.getMetrics().get(Metric.GET_REQUESTS);
      assertTrue(gets <= 256 / 4 + 3, () -> gets + " GETs: " + recorder.gets);
      assertEquals(length, factory.getMetrics().get(Metric.BYTES_RECEIVED));
      assertTrue(factory.getMemoryUsage().highWaterMark() <= limit);
    }
  }

  @Test
  void aRandomAccessStreamGetsNoReadAhead() throws Exception {
    try (S3SeekableInputStreamFactory factory = newFactory()) {
      Recorder recorder = new Recorder();
      try (S3SeekableInputStream stream =
          factory.createStream(
              uri,
              OpenStreamInformation.builder()
                  .inputPolicy(InputPolicy.RANDOM)
                  .requestCallback(recorder)
                  .build())) {
        for (int i = 0; i < 5; i++) {
          stream.seek((long) i * 4 * MIB);
          stream.read(new byte[1000], 0, 1000);
          stream.read(new byte[1000], 0, 1000);
        }
      }
      assertEquals(5, recorder.gets.size(), recorder.gets::toString);
      for (ByteRange get : recorder.gets) {
        assertEquals(64 * 1024, get.length());
      }
    }
  }

  @Test
  void readFullyOf20MiBIsTwoGetsOf10MiB() throws Exception {
    try (S3SeekableInputStreamFactory factory = newFactory()) {
      Recorder recorder = new Recorder();
      byte[] buffer = new byte[20 * MIB];
      try (S3SeekableInputStream stream =
          factory.createStream(
              uri, OpenStreamInformation.builder().requestCallback(recorder).build())) {
        stream.readFully(2 * MIB, buffer, 0, buffer.length);
      }
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 2 * MIB, 22 * MIB), buffer);
      assertEquals(2, factory.getMetrics().get(Metric.GET_REQUESTS), recorder.gets::toString);
      for (ByteRange get : recorder.gets) {
        assertEquals(10 * MIB, get.length(), get::toString);
      }
      assertEquals(20L * MIB, factory.getMetrics().get(Metric.BYTES_RECEIVED));
      assertEquals(1, factory.getMetrics().get(Metric.HEAD_REQUESTS));
    }
  }
}
