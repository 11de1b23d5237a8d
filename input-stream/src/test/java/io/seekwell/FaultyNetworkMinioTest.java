package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.client.SdkClients;
import io.seekwell.common.metrics.Metric;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import io.seekwell.testing.S3Endpoint;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * A factory over each of the SDK clients (Netty, CRT, sync Apache) reading through a proxy that
 * faults a quarter of the connections (stalls before headers and mid-body, cuts with FIN and RST,
 * slow first bytes), or every connection: every byte read equals the object's, and a store that
 * never answers fails the read with an error naming the object and what was tried.
 */
@WithS3Server
class FaultyNetworkMinioTest {

  private static final int LENGTH = 20 * 1024 * 1024;
  private static final byte[] CONTENT = TestData.randomBytes(71, LENGTH);
  private static final ObjectClientConfiguration CLIENT =
      ObjectClientConfiguration.builder()
          .stallFloor(Duration.ofMillis(300))
          .firstByteTimeout(Duration.ofSeconds(10))
          .readIdleTimeout(Duration.ofSeconds(10))
          .baseDelay(Duration.ofMillis(10))
          .maxDelay(Duration.ofMillis(100))
          .retryDeadline(Duration.ofSeconds(60))
          .build();

  private static S3TestBucket bucket;
  private FaultProxy proxy;

  /** How the factory reaches the store. */
  enum Kind {
    NETTY,
    CRT,
    SYNC
  }

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    bucket.put("faulty.bin", CONTENT);
  }

  @BeforeEach
  void startProxy() throws IOException {
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterEach
  void stopProxy() throws IOException {
    proxy.close();
  }

  static List<Arguments> kindsAndFaults() {
    List<Arguments> cases = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      for (ConnectionFault fault : ConnectionFault.values()) {
        cases.add(Arguments.of(kind, fault));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "{0}, {1} on a quarter of the connections")
  @MethodSource("kindsAndFaults")
  void everyByteIsRightWhenAQuarterOfTheConnectionsFail(Kind kind, ConnectionFault fault)
      throws Exception {
    proxy.faultConnections(fault, 0.25, kind.ordinal() * 31L + fault.ordinal());
    try (Reader reader = new Reader(kind, CLIENT)) {
      reader.readAtRandom(new Random(fault.ordinal()));
    }
    assertTrue(
        proxy.faultedConnections() > 0,
        "no connection was faulted, of "
            + proxy.connections()
            + ": "
            + proxy.requestHeads().size());
  }

  /**
   * Every connection ends (FIN) after 4 KiB. The sync client hands over the bytes that came before
   * the cut, so each resumed GET delivers a little more and the read completes. The Netty and CRT
   * clients hand over nothing of a body that ends short, so no GET makes progress: the read must
   * then fail clearly, naming the object and what was tried. Either way no wrong byte is returned.
   */
  @ParameterizedTest(name = "{0}, every connection cut with FIN")
  @EnumSource(Kind.class)
  void everyConnectionCutGivesTheRightBytesOrAClearFailure(Kind kind) throws Exception {
    proxy.faultConnections(ConnectionFault.CUT_FIN, 1.0, 1);
    try (Reader reader = new Reader(kind, CLIENT)) {
      byte[] bytes = new byte[60_000];
      if (kind == Kind.SYNC) {
        reader.stream.readFully(1_000_000, bytes, 0, bytes.length);
        assertArrayEquals(Arrays.copyOfRange(CONTENT, 1_000_000, 1_060_000), bytes);
        assertTrue(reader.factory.getMetrics().get(Metric.BODIES_RESUMED) > 0);
      } else {
        IOException e =
            assertThrows(
                IOException.class,
                () -> reader.stream.readFully(1_000_000, bytes, 0, bytes.length));
        String message = e.getMessage();
        assertTrue(message.contains("s3://" + bucket.name() + "/faulty.bin"), message);
        assertTrue(message.contains("gave up after"), message);
      }
    }
  }

  @ParameterizedTest(name = "{0}, every connection stalled")
  @EnumSource(Kind.class)
  void aStoreThatNeverAnswersFailsNamingTheObjectAndWhatWasTried(Kind kind) throws Exception {
    proxy.faultConnections(ConnectionFault.STALL_BEFORE_HEADERS, 1.0, 1);
    ObjectClientConfiguration impatient =
        CLIENT.toBuilder()
            .firstByteTimeout(Duration.ofSeconds(1))
            .maxAttempts(2)
            .retryDeadline(Duration.ofSeconds(20))
            .build();
    try (Reader reader = new Reader(kind, impatient)) {
      IOException e =
          assertThrows(IOException.class, () -> reader.stream.readFully(0, new byte[10], 0, 10));
      String message = e.getMessage();
      assertTrue(message.contains("s3://" + bucket.name() + "/faulty.bin"), message);
      assertTrue(message.contains("gave up after 2 attempts"), message);
    }
  }

  /** A factory of one kind through the proxy, and a stream over the object opened by length. */
  private final class Reader implements AutoCloseable {
    private final SdkAutoCloseable sdk;
    private final S3SeekableInputStreamFactory factory;
    private final S3SeekableInputStream stream;

    Reader(Kind kind, ObjectClientConfiguration client) throws IOException {
      S3Endpoint endpoint = bucket.endpoint();
      URI through = proxy.uri();
      S3SeekableInputStreamConfiguration configuration =
          S3SeekableInputStreamConfiguration.builder().client(client).build();
      switch (kind) {
        case NETTY -> {
          S3AsyncClient s3 =
              endpoint
                  .configure(S3AsyncClient.builder())
                  .endpointOverride(through)
                  .httpClientBuilder(SdkClients.nettyHttpClient(client))
                  .overrideConfiguration(SdkClients.withoutSdkRetries())
                  .build();
          sdk = s3;
          factory = new S3SeekableInputStreamFactory(s3, configuration);
        }
        case CRT -> {
          S3AsyncClient s3 =
              SdkClients.crtBuilder(client)
                  .endpointOverride(through)
                  .region(S3Endpoint.REGION)
                  .credentialsProvider(endpoint.credentials())
                  .forcePathStyle(true)
                  .build();
          sdk = s3;
          factory = new S3SeekableInputStreamFactory(s3, configuration);
        }
        default -> {
          S3Client s3 =
              endpoint
                  .configure(S3Client.builder())
                  .endpointOverride(through)
                  .httpClientBuilder(SdkClients.apacheHttpClient(client))
                  .overrideConfiguration(SdkClients.withoutSdkRetries())
                  .build();
          sdk = s3;
          factory = new S3SeekableInputStreamFactory(s3, configuration);
        }
      }
      stream =
          factory.createStream(
              S3URI.of(bucket.name(), "faulty.bin"),
              OpenStreamInformation.builder().objectLength(LENGTH).build());
    }

    /** Positional reads, a vectored read and a sequential read, each checked. */
    void readAtRandom(Random random) throws Exception {
      for (int i = 0; i < 12; i++) {
        int length = 1 + random.nextInt(300_000);
        int position = random.nextInt(LENGTH - length);
        byte[] bytes = new byte[length];
        stream.readFully(position, bytes, 0, length);
        assertArrayEquals(Arrays.copyOfRange(CONTENT, position, position + length), bytes);
      }
      List<ObjectRange> ranges = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        ranges.add(new ObjectRange(new CompletableFuture<>(), i * 4_400_000L, 100_000 + i));
      }
      stream.readVectored(ranges, ByteBuffer::allocate, buffer -> {});
      for (ObjectRange range : ranges) {
        ByteBuffer buffer = range.getByteBuffer().get(60, TimeUnit.SECONDS);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        int from = (int) range.getOffset();
        assertArrayEquals(Arrays.copyOfRange(CONTENT, from, from + range.getLength()), bytes);
      }
      stream.seek(14_000_000);
      byte[] sequential = new byte[1_500_000];
      int done = 0;
      while (done < sequential.length) {
        done += stream.read(sequential, done, sequential.length - done);
      }
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 14_000_000, 15_500_000), sequential);
    }

    @Override
    public void close() {
      stream.close();
      factory.close();
      sdk.close();
    }
  }
}
