package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each SDK object client against a real MinIO: bytes, metadata and error types. */
@WithS3Server
class S3ObjectClientMinioTest {

  private static final int LENGTH = 9 * 1024 * 1024 + 123;
  private static final byte[] CONTENT = TestData.randomBytes(42, LENGTH);

  private static S3TestBucket bucket;
  private static ObjectLocation object;
  private static String etag;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    object = ObjectLocation.of(bucket.name(), "data/object.bin");
    etag = bucket.put(object.key(), CONTENT);
  }

  private static SdkClientKind.Clients open(SdkClientKind kind, Metrics metrics) {
    return kind.open(bucket.endpoint(), ObjectClientConfiguration.defaults(), metrics);
  }

  static byte[] read(ObjectClient client, GetRequest request) throws Exception {
    try (ObjectContent content = client.getObject(request).get(30, TimeUnit.SECONDS)) {
      assertEquals(request.range(), content.range());
      return content.stream().readAllBytes();
    }
  }

  static <T extends Throwable> T failure(Class<T> type, java.util.concurrent.Future<?> future) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
    assertEquals(type, e.getCause().getClass(), () -> "unexpected: " + e.getCause());
    return type.cast(e.getCause());
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void headReturnsLengthAndEtag(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      ObjectMetadata metadata =
          clients.client().headObject(HeadRequest.of(object)).get(30, TimeUnit.SECONDS);
      assertEquals(LENGTH, metadata.length());
      assertEquals(etag, metadata.etag());
      assertTrue(metadata.lastModified().isPresent());
      assertEquals(1, metrics.get(Metric.HEAD_REQUESTS));
      assertEquals(0, metrics.get(Metric.GET_REQUESTS));
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void closedRangesReturnExactlyTheUploadedBytes(SdkClientKind kind) throws Exception {
    int eightMiB = 8 * 1024 * 1024;
    List<ByteRange> ranges =
        List.of(
            ByteRange.of(0, 0),
            ByteRange.of(LENGTH - 1, LENGTH - 1),
            ByteRange.of(5, 5),
            ByteRange.of(eightMiB - 1000, eightMiB + 1000),
            ByteRange.of(0, LENGTH - 1));
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      long expectedBytes = 0;
      for (ByteRange range : ranges) {
        byte[] bytes = read(clients.client(), GetRequest.of(object, range).withEtag(etag));
        byte[] expected = Arrays.copyOfRange(CONTENT, (int) range.start(), (int) range.end() + 1);
        assertArrayEquals(expected, bytes, "range " + range);
        expectedBytes += range.length();
      }
      assertEquals(ranges.size(), metrics.get(Metric.GET_REQUESTS));
      assertEquals(expectedBytes, metrics.get(Metric.BYTES_RECEIVED));
      assertEquals(0, metrics.get(Metric.HEAD_REQUESTS));
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void missingKeyIsFileNotFound(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    ObjectLocation missing = ObjectLocation.of(bucket.name(), "no/such/key");
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      FileNotFoundException head =
          failure(
              FileNotFoundException.class, clients.client().headObject(HeadRequest.of(missing)));
      assertTrue(head.getMessage().startsWith("HEAD " + missing), head.getMessage());
      FileNotFoundException get =
          failure(
              FileNotFoundException.class,
              clients.client().getObject(GetRequest.of(missing, ByteRange.of(0, 9))));
      assertTrue(get.getMessage().startsWith("GET " + missing + " [0-9]"), get.getMessage());
      assertEquals(2, metrics.get(Metric.ERRORS_NOT_FOUND));
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void staleEtagIsObjectChanged(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      GetRequest stale = GetRequest.of(object, ByteRange.of(0, 99)).withEtag("\"0123456789\"");
      ObjectChangedException e =
          failure(ObjectChangedException.class, clients.client().getObject(stale));
      assertTrue(e.getMessage().contains(object.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("HTTP 412"), e.getMessage());
      assertEquals(1, metrics.get(Metric.ERRORS_OBJECT_CHANGED));
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void rangePastTheEndIsEof(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      GetRequest afterEnd = GetRequest.of(object, ByteRange.of(LENGTH, LENGTH + 10));
      EOFException startPastEnd = failure(EOFException.class, clients.client().getObject(afterEnd));
      assertTrue(startPastEnd.getMessage().contains("[" + LENGTH + "-"), startPastEnd.getMessage());

      GetRequest acrossEnd = GetRequest.of(object, ByteRange.of(LENGTH - 10, LENGTH + 10));
      EOFException endPastEnd =
          assertThrows(EOFException.class, () -> read(clients.client(), acrossEnd));
      assertTrue(endPastEnd.getMessage().contains("sent 10 of 21 bytes"), endPastEnd.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(SdkClientKind.class)
  void closingBeforeTheEndLeavesTheClientUsable(SdkClientKind kind) throws Exception {
    Metrics metrics = new Metrics();
    try (SdkClientKind.Clients clients = open(kind, metrics)) {
      for (int i = 0; i < 3; i++) {
        try (ObjectContent content =
            clients
                .client()
                .getObject(GetRequest.of(object, ByteRange.of(0, LENGTH - 1)))
                .get(30, TimeUnit.SECONDS)) {
          assertEquals(CONTENT[0] & 0xFF, content.stream().read());
        }
      }
      byte[] tail =
          read(clients.client(), GetRequest.of(object, ByteRange.of(LENGTH - 4, LENGTH - 1)));
      assertArrayEquals(Arrays.copyOfRange(CONTENT, LENGTH - 4, LENGTH), tail);
      assertEquals(4, metrics.get(Metric.GET_REQUESTS));
    }
  }

  static void assertIoMessage(IOException e, String text) {
    assertTrue(e.getMessage().contains(text), e.getMessage());
  }
}
