package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * 64 streams read at once through a proxy that answers 503 SlowDown to the requests over a rate, as
 * S3 does while a prefix scales. Every byte is right and no read fails; the bucket's concurrency
 * limit is cut while the store throttles and grows again once it stops.
 */
@WithS3Server
class ThrottledStoreMinioTest {

  private static final int OBJECTS = 8;
  private static final int LENGTH = 4 * 1024 * 1024;
  private static final int STREAMS = 64;

  /**
   * The store's rate and latency: what a limit of requests in flight can hold a client to is the
   * limit over the latency, so the rate is many times one over the latency, as with S3 (thousands a
   * second, 25 ms to the first byte).
   */
  private static final double STORE_RATE = 150;

  private static final Duration STORE_LATENCY = Duration.ofMillis(25);
  private static final List<byte[]> CONTENTS = new ArrayList<>();
  private static final String THROTTLED = "throttled/";

  /**
   * Where the streams read after the store stops throttling: objects of their own, so that every
   * read is a GET (none is served from blocks cached while throttled) and enough are in flight for
   * the limit to grow.
   */
  private static final String RECOVERED = "recovered/";

  private static S3TestBucket bucket;
  private FaultProxy proxy;
  private S3AsyncClient s3;
  private S3SeekableInputStreamFactory factory;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    for (int i = 0; i < OBJECTS; i++) {
      CONTENTS.add(TestData.randomBytes(300 + i, LENGTH));
      bucket.put(THROTTLED + i, CONTENTS.get(i));
      bucket.put(RECOVERED + i, CONTENTS.get(i));
    }
  }

  @BeforeEach
  void start() throws IOException {
    proxy = FaultProxy.start(bucket.endpoint().uri());
    S3SeekableInputStreamConfiguration configuration =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of(
                    "client.retry.base.delay", "20ms",
                    "client.retry.max.delay", "1s",
                    // The limit's cut, not a request's luck with its backoffs, is the subject: a
                    // request sent in the first burst may meet an empty bucket five times running.
                    "client.retry.max.attempts", "10",
                    // Every stream's reads are GETs of their own, not one GET of the object.
                    "logicalio.small.object.prefetch", "false")));
    ObjectClientConfiguration client = configuration.client();
    s3 =
        bucket
            .endpoint()
            .configure(S3AsyncClient.builder())
            .endpointOverride(proxy.uri())
            .httpClientBuilder(SdkClients.nettyHttpClient(client))
            .overrideConfiguration(SdkClients.withoutSdkRetries())
            .build();
    factory = new S3SeekableInputStreamFactory(s3, configuration);
  }

  @AfterEach
  void stop() throws IOException {
    factory.close();
    s3.close();
    proxy.close();
  }

  @Test
  void sixtyFourStreamsRideThroughThrottlingAndTheLimitRecoversAfter() throws Exception {
    proxy.delayRequests(STORE_LATENCY);
    proxy.throttleAbove(STORE_RATE);
    readFromEveryStream(THROTTLED, 12, 1);
    MetricsSnapshot throttled = factory.getMetrics();
    int cutTo = factory.getConcurrencyLimits().get(bucket.name());

    assertTrue(
        proxy.throttledRequests() > 0,
        "the store throttled none of " + proxy.forwardedRequests() + ": " + throttled);
    // A 503 to an attempt already given up (a hedge whose twin answered) is not counted.
    long seen = throttled.get(Metric.ERRORS_THROTTLED);
    assertTrue(
        seen > 0 && seen <= proxy.throttledRequests(),
        seen + " throttled answers seen of " + proxy.throttledRequests());
    assertTrue(throttled.get(Metric.CONCURRENCY_LIMIT_CUTS) > 0, throttled::toString);
    assertTrue(cutTo < STREAMS, "cut below the streams in flight: " + cutTo);
    assertTrue(throttled.get(Metric.REQUESTS_QUEUED) > 0, throttled::toString);
    assertTrue(throttled.get(Metric.QUEUED_NANOS) > 0, throttled::toString);
    assertTrue(throttled.get(Metric.PREFETCHED_BYTES) > 0, "read-ahead competed for places");

    proxy.throttleAbove(0);
    long throttledBefore = proxy.throttledRequests();
    readFromEveryStream(RECOVERED, 40, 2);
    int grownTo = factory.getConcurrencyLimits().get(bucket.name());
    assertTrue(
        grownTo > cutTo,
        "grew from " + cutTo + " to " + grownTo + ": " + factory.getMetrics().minus(throttled));
    assertEquals(throttledBefore, proxy.throttledRequests());
  }

  /**
   * Each of {@value #STREAMS} streams, on as many threads, makes {@code reads} random 4 KiB reads
   * of one object under {@code prefix}, checking each; every other stream also reads 1 MiB in
   * order, 16 KiB at a time, so that read-ahead prefetches compete with the random reads for
   * places.
   */
  private void readFromEveryStream(String prefix, int reads, long seed) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(STREAMS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int s = 0; s < STREAMS; s++) {
        int streamNumber = s;
        done.add(
            pool.submit(
                () -> {
                  readOneStream(
                      prefix, streamNumber, reads, new Random(seed * 1000 + streamNumber));
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void readOneStream(String prefix, int streamNumber, int reads, Random random)
      throws IOException {
    int object = streamNumber % OBJECTS;
    byte[] content = CONTENTS.get(object);
    try (S3SeekableInputStream stream =
        factory.createStream(
            S3URI.of(bucket.name(), prefix + object),
            OpenStreamInformation.builder().objectLength(LENGTH).build())) {
      byte[] bytes = new byte[4096];
      for (int i = 0; i < reads; i++) {
        int position = random.nextInt(LENGTH - bytes.length);
        stream.readFully(position, bytes, 0, bytes.length);
        assertArrayEquals(Arrays.copyOfRange(content, position, position + bytes.length), bytes);
      }
      if (streamNumber % 2 == 1) {
        int start = random.nextInt(LENGTH / 2);
        byte[] sequential = new byte[1024 * 1024];
        stream.seek(start);
        int read = 0;
        while (read < sequential.length) {
          read += stream.read(sequential, read, Math.min(16 * 1024, sequential.length - read));
        }
        assertArrayEquals(
            Arrays.copyOfRange(content, start, start + sequential.length), sequential);
      }
    }
  }
}
