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
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.FileNotFoundException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ResumingObjectClient} alone, over a client that neither retries nor hedges: a scripted
 * store on a clock the test moves.
 */
class ResumingObjectClientTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");
  private static final byte[] CONTENT = TestData.randomBytes(21, 100_000);
  private static final ObjectClientConfiguration CONFIG =
      ObjectClientConfiguration.builder()
          .baseDelay(Duration.ofMillis(1))
          .maxDelay(Duration.ofMillis(2))
          .retryDeadline(Duration.ofSeconds(60))
          .build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  private final ManualClock clock = new ManualClock();
  private final String etag = store.put(OBJECT, CONTENT);
  private final ResumingObjectClient client = resuming();

  private ResumingObjectClient resuming() {
    ResponseTimes times = new ResponseTimes(CONFIG);
    return new ResumingObjectClient(
        new ResumingObjectClient.Resumes(
            faults,
            new RetryPolicy(CONFIG),
            clock,
            times,
            new StallWatchdog(clock, clock, times, CONFIG),
            new RequestCounter(metrics)));
  }

  @AfterEach
  void close() {
    client.close();
    clock.close();
  }

  @Test
  void aBodyCutPartWayIsResumedWithAGetOfTheRestPinnedToItsEtagAndSaysSo() throws Exception {
    faults.thenCutBodyAfter(40_000);
    GetRequest all = GetRequest.of(OBJECT, ByteRange.of(0, CONTENT.length - 1));
    try (CapturedLogs logs = new CapturedLogs();
        ObjectContent content = client.getObject(all).get(10, TimeUnit.SECONDS)) {
      assertArrayEquals(CONTENT, content.stream().readAllBytes());

      GetRequest rest = faults.sentGets().get(1);
      assertEquals(ByteRange.of(40_000, CONTENT.length - 1), rest.range());
      assertEquals(Optional.of(etag), rest.etag());
      assertEquals(2, faults.sentGets().size());
      assertEquals(1, metrics.get(Metric.BODIES_RESUMED));
      assertEquals(1, metrics.get(Metric.RETRIES));
      String line = logs.line("body resumed");
      assertTrue(line.startsWith("GET " + all.describe() + ": body resumed at byte 40000"), line);
      assertTrue(line.contains("GET 2 of the body, after TRANSIENT"), line);
    }
  }

  @Test
  void aBodyThatFailsWithANonRetryableErrorIsNotResumed() throws Exception {
    faults.thenCutBodyAfter(1_000).thenFail(new FileNotFoundException("gone"));
    GetRequest all = GetRequest.of(OBJECT, ByteRange.of(0, CONTENT.length - 1));
    try (ObjectContent content = client.getObject(all).get(10, TimeUnit.SECONDS)) {
      byte[] first = content.stream().readNBytes(1_000);
      assertArrayEquals(Arrays.copyOf(CONTENT, 1_000), first);
      assertThrows(FileNotFoundException.class, () -> content.stream().read());
    }
    assertEquals(2, faults.sentGets().size());
    assertEquals(1, metrics.get(Metric.BODIES_RESUMED));
  }

  @Test
  void aHeadPassesThrough() throws Exception {
    assertEquals(
        CONTENT.length,
        client.headObject(HeadRequest.of(OBJECT)).get(10, TimeUnit.SECONDS).length());
    assertEquals(0, metrics.get(Metric.RETRIES));
  }
}
