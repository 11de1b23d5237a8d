package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RetryingObjectClientTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");
  private static final byte[] CONTENT = TestData.randomBytes(5, 100_000);
  private static final ObjectClientConfiguration FAST =
      ObjectClientConfiguration.defaults()
          .withRetryDelays(Duration.ofMillis(1), Duration.ofMillis(4));

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(metrics);
  private final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  private final String etag = store.put(OBJECT, CONTENT);

  private static ObjectStoreException slowDown() {
    return new ObjectStoreException(
        "GET s3://bucket/key: slow down", 503, "SlowDown", "r", true, null);
  }

  private static byte[] readAll(RetryingObjectClient client, GetRequest request) throws Exception {
    try (ObjectContent content = client.getObject(request).get(10, TimeUnit.SECONDS)) {
      return content.stream().readAllBytes();
    }
  }

  @Test
  void headIsRetriedAfterThrottling() throws Exception {
    faults.thenFail(slowDown()).thenFail(slowDown());
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics)) {
      assertEquals(
          CONTENT.length,
          client.headObject(HeadRequest.of(OBJECT)).get(10, TimeUnit.SECONDS).length());
    }
    assertEquals(2, metrics.get(Metric.RETRIES));
    assertEquals(1, store.heads().size());
  }

  @Test
  void notFoundIsNotRetried() {
    FileNotFoundException missing = new FileNotFoundException("GET s3://bucket/key: not found");
    faults.thenFail(missing);
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics)) {
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 9))).get());
      assertSame(missing, e.getCause());
    }
    assertEquals(0, metrics.get(Metric.RETRIES));
  }

  @Test
  void deadlineStopsRetriesEarly() {
    ObjectClientConfiguration slowBackoff =
        ObjectClientConfiguration.builder()
            .maxAttempts(10)
            .baseDelay(Duration.ofSeconds(10))
            .maxDelay(Duration.ofSeconds(10))
            .retryDeadline(Duration.ofMillis(1))
            .build();
    faults.thenFail(slowDown());
    RetryPolicy alwaysWaitFullBound = new RetryPolicy(slowBackoff, () -> 0.999);
    try (RetryingObjectClient client =
        new RetryingObjectClient(faults, alwaysWaitFullBound, metrics)) {
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> client.headObject(HeadRequest.of(OBJECT)).get(10, TimeUnit.SECONDS));
      assertTrue(e.getCause().getMessage().endsWith("(gave up after 1 attempt)"));
    }
    assertEquals(0, metrics.get(Metric.RETRIES));
  }

  @Test
  void cutBodyResumesFromTheFirstUndeliveredByteWithTheSameEtag() throws Exception {
    faults.thenCutBodyAfter(30_000);
    ByteRange range = ByteRange.of(1_000, 90_000);
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics)) {
      assertArrayEquals(
          Arrays.copyOfRange(CONTENT, 1_000, 90_001),
          readAll(client, GetRequest.of(OBJECT, range)));
    }
    List<GetRequest> gets = store.gets();
    assertEquals(2, gets.size());
    assertEquals(range, gets.get(0).range());
    assertEquals(ByteRange.of(31_000, 90_000), gets.get(1).range());
    assertEquals(etag, gets.get(1).etag().orElseThrow());
    assertEquals(1, metrics.get(Metric.RETRIES));
    assertEquals(0, store.openContents());
  }

  @Test
  void resumeOfAChangedObjectFailsInsteadOfMixingVersions() throws Exception {
    faults.thenCutBodyAfter(10);
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics);
        ObjectContent content =
            client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 999))).get()) {
      InputStream in = content.stream();
      assertEquals(10, in.readNBytes(10).length);
      store.put(OBJECT, TestData.randomBytes(6, CONTENT.length));
      assertThrows(ObjectChangedException.class, in::read);
    }
    assertEquals(0, store.openContents());
  }

  @Test
  void bodyThatKeepsFailingGivesUpWithTheAttemptCount() throws Exception {
    int gets = FAST.resumeMaxAttempts();
    for (int i = 0; i < gets; i++) {
      faults.thenCutBodyAfter(0);
    }
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics);
        ObjectContent content =
            client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 9_999))).get()) {
      IOException e = assertThrows(IOException.class, () -> content.stream().readAllBytes());
      assertEquals(
          "Connection reset (gave up after "
              + gets
              + " GETs of the body, "
              + gets
              + " in a row without a byte)",
          e.getMessage());
    }
    assertEquals(gets, store.gets().size());
    assertEquals(gets - 1, metrics.get(Metric.RETRIES));
    assertEquals(0, store.openContents());
  }

  @Test
  void aBodyCutAgainAndAgainButMakingProgressIsFinished() throws Exception {
    for (int i = 0; i < 20; i++) {
      faults.thenCutBodyAfter(1000);
    }
    try (RetryingObjectClient client = new RetryingObjectClient(faults, FAST, metrics);
        ObjectContent content =
            client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 29_999))).get()) {
      assertArrayEquals(Arrays.copyOf(CONTENT, 30_000), content.stream().readAllBytes());
    }
    assertEquals(21, store.gets().size());
    assertEquals(20, metrics.get(Metric.BODIES_RESUMED));
  }

  @Test
  void exhaustedOpenReportsTheStoreError() {
    ObjectClientConfiguration twoAttempts = FAST.withMaxAttempts(2);
    faults.thenFail(slowDown()).thenFail(slowDown());
    try (RetryingObjectClient client = new RetryingObjectClient(faults, twoAttempts, metrics)) {
      ExecutionException e =
          assertThrows(
              ExecutionException.class,
              () -> client.getObject(GetRequest.of(OBJECT, ByteRange.of(0, 9))).get());
      ObjectStoreException store = assertInstanceOf(ObjectStoreException.class, e.getCause());
      assertEquals(503, store.statusCode());
      assertEquals("GET s3://bucket/key: slow down (gave up after 2 attempts)", store.getMessage());
    }
  }

  @Property(tries = 200)
  void anyCutsStillDeliverEveryByteExactlyOnce(
      @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 20_000) Integer> cuts,
      @ForAll @IntRange(min = 0, max = 50_000) int start,
      @ForAll @IntRange(min = 1, max = 50_000) int length)
      throws Exception {
    Metrics counts = new Metrics();
    InMemoryObjectClient memory = new InMemoryObjectClient(counts);
    memory.put(OBJECT, CONTENT);
    ScriptedFaultsObjectClient scripted = new ScriptedFaultsObjectClient(memory);
    cuts.forEach(scripted::thenCutBodyAfter);
    ByteRange range = ByteRange.ofLength(start, length);
    try (RetryingObjectClient client = new RetryingObjectClient(scripted, FAST, counts)) {
      assertArrayEquals(
          Arrays.copyOfRange(CONTENT, start, start + length),
          readAll(client, GetRequest.of(OBJECT, range)));
    }
    // Model: each cut that falls inside the rest of the range ends one GET early, and the next
    // GET starts exactly at the first byte not yet delivered.
    List<ByteRange> expected = new java.util.ArrayList<>();
    long position = range.start();
    expected.add(range);
    for (int cut : cuts) {
      if (cut >= range.end() - position + 1) {
        break;
      }
      position += cut;
      expected.add(ByteRange.of(position, range.end()));
    }
    assertEquals(expected, memory.gets().stream().map(GetRequest::range).toList());
    assertEquals(expected.size() - 1, counts.get(Metric.RETRIES));
    assertEquals(0, memory.openContents());
  }
}
