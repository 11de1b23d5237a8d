package io.seekwell.client;

import static io.seekwell.client.S3ObjectClientMinioTest.failure;
import static io.seekwell.client.S3ObjectClientMinioTest.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each SDK object client, wrapped in {@link RetryingObjectClient}, against MinIO behind a proxy
 * that injects throttling, connection resets and stalls on the real HTTP path.
 */
@WithS3Server
class ProxiedMinioTest {

  private static final int LENGTH = 4 * 1024 * 1024;
  private static final byte[] CONTENT = TestData.randomBytes(7, LENGTH);
  private static final Pattern RANGE = Pattern.compile("(?im)^range: bytes=(\\d+)-(\\d+)\\r?$");
  // Retries are counted exactly here, so no copies: on a busy machine a cold client's first answer
  // can come after the cold hedge deadline. Hedging has its own tests (ResilienceTest, and the
  // fault tests of the input stream).
  private static final ObjectClientConfiguration CONFIG =
      ObjectClientConfiguration.defaults()
          .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(2))
          .withRetryDelays(Duration.ofMillis(10), Duration.ofMillis(50))
          .toBuilder()
          .hedgeMaxCopies(0)
          .build();

  private static S3TestBucket bucket;
  private static ObjectLocation object;
  private static String etag;
  private FaultProxy proxy;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    object = ObjectLocation.of(bucket.name(), "retry/object.bin");
    etag = bucket.put(object.key(), CONTENT);
  }

  @BeforeEach
  void startProxy() throws Exception {
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterEach
  void stopProxy() throws Exception {
    proxy.close();
  }

  private SdkClientKind.Clients open(
      SdkClientKind kind, ObjectClientConfiguration config, Metrics metrics) {
    return kind.open(bucket.endpoint(), proxy.uri(), config, metrics);
  }

  private List<ByteRange> requestedRanges() {
    return proxy.requestHeads().stream()
        .map(RANGE::matcher)
        .filter(Matcher::find)
        .map(m -> ByteRange.of(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))))
        .toList();
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void everyGetSendsItsRangeEtagAuditAndUserAgent(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics)) {
      RequestOptions options =
          RequestOptions.none().withAuditInfo("query-17").withUserAgentSuffix("engine/2.1");
      GetRequest request =
          GetRequest.of(object, ByteRange.of(10, 20)).withEtag(etag).withOptions(options);
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 10, 21), read(clients.client(), request));
      String head = proxy.requestHeads().get(0).toLowerCase(Locale.ROOT);
      assertTrue(head.startsWith("get /"), head);
      assertTrue(head.contains("range: bytes=10-20"), head);
      assertTrue(head.contains("if-match: " + etag.toLowerCase(Locale.ROOT)), head);
      assertTrue(head.contains("referer: query-17"), head);
      assertTrue(head.contains("seekwell/"), head);
      assertTrue(head.contains("engine/2.1"), head);
      // Without options, the overrides built once: Seekwell's user agent, nothing else.
      assertArrayEquals(
          Arrays.copyOfRange(CONTENT, 10, 21),
          read(clients.client(), GetRequest.of(object, ByteRange.of(10, 20))));
      String plain = proxy.requestHeads().get(1).toLowerCase(Locale.ROOT);
      assertTrue(plain.contains("seekwell/"), plain);
      assertFalse(plain.contains("referer:"), plain);
      assertFalse(plain.contains("engine/2.1"), plain);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void twoThrottledAnswersThenSuccess(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics);
        ObjectClient retrying = new RetryingObjectClient(clients.client(), CONFIG, metrics)) {
      proxy.failNextRequests(2);
      ByteRange range = ByteRange.of(1000, 300_000);
      byte[] bytes = read(retrying, GetRequest.of(object, range));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 1000, 300_001), bytes);
      assertEquals(2, metrics.get(Metric.RETRIES));
      assertEquals(3, metrics.get(Metric.GET_REQUESTS));
      assertEquals(2, metrics.get(Metric.ERRORS_THROTTLED));
      assertEquals(List.of(range, range, range), requestedRanges());

      proxy.failNextRequests(2);
      assertEquals(
          LENGTH, retrying.headObject(HeadRequest.of(object)).get(30, TimeUnit.SECONDS).length());
      assertEquals(4, metrics.get(Metric.RETRIES));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void exhaustedRetriesReportTheLastErrorAndTheAttempts(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    ObjectClientConfiguration threeAttempts = CONFIG.withMaxAttempts(3);
    try (SdkClientKind.Clients clients = open(kind, threeAttempts, metrics);
        ObjectClient retrying =
            new RetryingObjectClient(clients.client(), threeAttempts, metrics)) {
      proxy.failNextRequests(10);
      ObjectStoreException e =
          failure(
              ObjectStoreException.class,
              retrying.getObject(GetRequest.of(object, ByteRange.of(0, 99))));
      assertEquals(503, e.statusCode());
      assertTrue(e.getMessage().contains("gave up after 3 attempts"), e.getMessage());
      assertTrue(e.getMessage().contains(object + " [0-99]"), e.getMessage());
      assertEquals(3, metrics.get(Metric.GET_REQUESTS));
      assertEquals(2, metrics.get(Metric.RETRIES));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void connectionCutMidBodyIsResumedFromTheFirstMissingByte(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics);
        ObjectClient retrying = new RetryingObjectClient(clients.client(), CONFIG, metrics)) {
      proxy.cutNextResponseAfter(1024 * 1024);
      ByteRange range = ByteRange.of(100, LENGTH - 1);
      byte[] bytes = read(retrying, GetRequest.of(object, range));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 100, LENGTH), bytes);
      assertEquals(2, metrics.get(Metric.GET_REQUESTS));
      assertEquals(1, metrics.get(Metric.RETRIES));
      // Every byte was received once: the resumed GET asked for exactly the missing suffix.
      assertEquals(range.length(), metrics.get(Metric.BYTES_RECEIVED));
      List<ByteRange> ranges = requestedRanges();
      assertEquals(2, ranges.size(), ranges::toString);
      assertEquals(range, ranges.get(0));
      assertTrue(ranges.get(1).start() > range.start(), ranges::toString);
      assertEquals(range.end(), ranges.get(1).end());
      assertTrue(proxy.requestHeads().get(1).toLowerCase(Locale.ROOT).contains("if-match:"));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void stalledBodyTimesOutAndIsResumed(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics);
        ObjectClient retrying = new RetryingObjectClient(clients.client(), CONFIG, metrics)) {
      proxy.stallNextResponseAfter(512 * 1024);
      ByteRange range = ByteRange.of(0, LENGTH - 1);
      byte[] bytes = read(retrying, GetRequest.of(object, range));
      assertArrayEquals(CONTENT, bytes);
      assertEquals(2, metrics.get(Metric.GET_REQUESTS));
      assertEquals(range.length(), metrics.get(Metric.BYTES_RECEIVED));
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void responseThatDoesNotStartInTimeIsAbandoned(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    ObjectClientConfiguration quickFirstByte =
        CONFIG.withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(30)).toBuilder()
            .maxAttempts(1)
            .build();
    try (SdkClientKind.Clients clients = open(kind, quickFirstByte, metrics);
        ObjectClient resilient =
            new RetryingObjectClient(clients.client(), quickFirstByte, metrics)) {
      proxy.stallNextResponseAfter(0);
      ObjectStoreException e =
          failure(
              ObjectStoreException.class,
              resilient.getObject(GetRequest.of(object, ByteRange.of(0, 99))));
      assertEquals(0, e.statusCode());
      // The layer gives up at the headers timeout; a blocking client's SDK call has the same
      // timeout, so on a busy machine either may be first to say so.
      String message = e.getMessage();
      assertTrue(
          message.startsWith("GET " + object + " [0-99]: ")
              && message.endsWith(" (gave up after 1 attempt)")
              && (message.contains("no response headers within 500 ms")
                  || message.contains("did not complete before the specified timeout")),
          message);
      assertEquals(1, metrics.get(Metric.ERRORS_NETWORK));
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void responseThatDoesNotStartInTimeIsRetried(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    ObjectClientConfiguration quickFirstByte =
        CONFIG.withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(30));
    try (SdkClientKind.Clients clients = open(kind, quickFirstByte, metrics);
        ObjectClient retrying =
            new RetryingObjectClient(clients.client(), quickFirstByte, metrics)) {
      proxy.stallNextResponseAfter(0);
      byte[] bytes = read(retrying, GetRequest.of(object, ByteRange.of(0, 99)));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 0, 100), bytes);
      assertEquals(2, metrics.get(Metric.GET_REQUESTS));
      assertEquals(1, metrics.get(Metric.RETRIES));
    }
  }

  // Not for the CRT, which finishes the part in flight (see SdkClients.crtBuilder).
  @ParameterizedTest
  @EnumSource(names = {"NETTY", "SYNC"})
  void closingBeforeTheEndAbortsInsteadOfDraining(SdkClientKind kind) throws Exception {
    int length = 64 * 1024 * 1024;
    ObjectLocation large = ObjectLocation.of(bucket.name(), "retry/large-" + kind);
    bucket.put(large.key(), TestData.randomBytes(3, length));
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics)) {
      try (ObjectContent content =
          clients
              .client()
              .getObject(GetRequest.of(large, ByteRange.of(0, length - 1)))
              .get(30, TimeUnit.SECONDS)) {
        content.stream().read();
      }
      // An aborted body closes its connection; a drained one would go back to the pool, open.
      awaitNoOpenConnection(Duration.ofSeconds(10));
      // Socket and client buffers hold a few MiB; a drained body would be all 64.
      assertTrue(
          proxy.bytesToClients() < length / 4,
          () -> proxy.bytesToClients() + " bytes of " + length + " crossed the wire");
    }
  }

  /** Waits until every connection through the proxy is closed, failing after {@code limit}. */
  private void awaitNoOpenConnection(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (proxy.openConnections() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            proxy.openConnections() + " connections still open after " + limit.toMillis() + " ms");
      }
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  // The CRT retries and resumes inside itself (see SdkClients.crtRetryConfiguration): its
  // requests are counted on the wire, at the proxy.

  @ParameterizedTest
  @EnumSource(names = "CRT")
  void crtRetriesThrottledRequestsItself(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics)) {
      proxy.failNextRequests(2);
      ByteRange range = ByteRange.of(1000, 300_000);
      byte[] bytes = read(clients.client(), GetRequest.of(object, range));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 1000, 300_001), bytes);
      assertEquals(List.of(range, range, range), requestedRanges());
      assertEquals(1, metrics.get(Metric.GET_REQUESTS));
    }
  }

  @ParameterizedTest
  @EnumSource(names = "CRT")
  void crtGivesUpAfterTheConfiguredAttempts(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    ObjectClientConfiguration threeAttempts = CONFIG.withMaxAttempts(3);
    try (SdkClientKind.Clients clients = open(kind, threeAttempts, metrics)) {
      proxy.failNextRequests(10);
      ObjectStoreException e =
          failure(
              ObjectStoreException.class,
              clients.client().getObject(GetRequest.of(object, ByteRange.of(0, 99))));
      // The CRT reports exhausted throttling retries as a client error, not as the 503 itself.
      assertTrue(e.getMessage().contains("throttling"), e::toString);
      assertTrue(e.getMessage().contains(object + " [0-99]"), e::toString);
      assertEquals(3, proxy.requestHeads().size());
    }
  }

  @ParameterizedTest
  @EnumSource(names = "CRT")
  void crtRecoversFromACutConnection(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, CONFIG, metrics)) {
      proxy.cutNextResponseAfter(1024 * 1024);
      ByteRange range = ByteRange.of(100, LENGTH - 1);
      byte[] bytes = read(clients.client(), GetRequest.of(object, range));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 100, LENGTH), bytes);
      assertEquals(2, requestedRanges().size());
    }
  }
}
