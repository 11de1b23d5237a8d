package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.testing.ForwardingObjectClient;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ResumingObjectClient} alone, over a client that neither retries nor hedges: a scripted
 * store on a clock the test moves.
 */
class ResumingObjectClientTest {

  private static final ObjectClientConfiguration CONFIG =
      ScriptedFaultsObjectClient.fastRetries().build();

  private final ScriptedStore store = new ScriptedStore(21, 100_000);
  private final ResponseTimes times = new ResponseTimes(CONFIG);
  private final ResumingObjectClient client =
      new ResumingObjectClient(
          new ResumingObjectClient.Resumes(
              store.faults,
              new RetryPolicy(CONFIG),
              store.clock,
              times,
              new StallWatchdog(store.clock, store.clock, times, CONFIG),
              new RequestCounter(store.metrics)));

  @AfterEach
  void close() {
    client.close();
    store.close();
  }

  @Test
  void aBodyCutPartWayIsResumedWithAGetOfTheRestPinnedToItsEtagAndSaysSo() throws Exception {
    store.faults.thenCutBodyAfter(40_000);
    try (CapturedLogs logs = new CapturedLogs();
        ObjectContent content = client.getObject(store.all).get(10, TimeUnit.SECONDS)) {
      assertArrayEquals(store.content, content.stream().readAllBytes());

      GetRequest rest = store.faults.sentGets().get(1);
      assertEquals(ByteRange.of(40_000, store.content.length - 1), rest.range());
      assertEquals(Optional.of(store.etag), rest.etag());
      assertEquals(2, store.faults.sentGets().size());
      assertEquals(1, store.metrics.get(Metric.BODIES_RESUMED));
      assertEquals(1, store.metrics.get(Metric.RETRIES));
      String line = logs.line("body resumed");
      assertTrue(
          line.startsWith("GET " + store.all.describe() + ": body resumed at byte 40000"), line);
      assertTrue(line.contains("GET 2 of the body, after TRANSIENT"), line);
    }
  }

  @Test
  void aBodyThatFailsWithANonRetryableErrorIsNotResumed() throws Exception {
    store.faults.thenCutBodyAfter(1_000).thenFail(new FileNotFoundException("gone"));
    try (ObjectContent content = client.getObject(store.all).get(10, TimeUnit.SECONDS)) {
      byte[] first = content.stream().readNBytes(1_000);
      assertArrayEquals(Arrays.copyOf(store.content, 1_000), first);
      assertThrows(FileNotFoundException.class, () -> content.stream().read());
    }
    assertEquals(2, store.faults.sentGets().size());
    assertEquals(1, store.metrics.get(Metric.BODIES_RESUMED));
  }

  @Test
  void aHeadPassesThrough() throws Exception {
    assertEquals(
        store.content.length,
        client.headObject(HeadRequest.of(ScriptedStore.OBJECT)).get(10, TimeUnit.SECONDS).length());
    assertEquals(0, store.metrics.get(Metric.RETRIES));
  }

  @Test
  void aReadOfAWholeLargeRangeAsksTheBodyForAtMostOneChunkAtATime() throws Exception {
    // A body that, like the SDK's blocking one, returns only once it has filled what was asked:
    // asked for the whole range, it would give the watchdog no progress to see until the end.
    List<Integer> asked = new ArrayList<>();
    ObjectClient recording =
        new ForwardingObjectClient(store.faults) {
          @Override
          protected int read(InputStream body, byte[] buffer, int offset, int length)
              throws IOException {
            asked.add(length);
            return body.readNBytes(buffer, offset, length);
          }
        };
    try (ResumingObjectClient resuming =
            new ResumingObjectClient(
                new ResumingObjectClient.Resumes(
                    recording,
                    new RetryPolicy(CONFIG),
                    store.clock,
                    times,
                    new StallWatchdog(store.clock, store.clock, times, CONFIG),
                    new RequestCounter(store.metrics)));
        ObjectContent content = resuming.getObject(store.all).get(10, TimeUnit.SECONDS)) {
      byte[] all = new byte[store.content.length];
      assertEquals(all.length, content.stream().readNBytes(all, 0, all.length));
      assertArrayEquals(store.content, all);
    }
    assertTrue(asked.size() >= store.content.length / ResumingInputStream.MAX_READ, "" + asked);
    assertTrue(
        asked.stream().allMatch(length -> length <= ResumingInputStream.MAX_READ), "" + asked);
  }
}
