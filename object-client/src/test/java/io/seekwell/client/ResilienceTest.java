package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ErrorKind;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectStoreException;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The resilience layer's hedging, first-byte timeouts and stall detection, on a clock the test
 * moves: no test here waits for wall-clock time to pass.
 */
class ResilienceTest {

  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");
  private static final byte[] CONTENT = TestData.randomBytes(11, 200_000);
  private static final GetRequest ALL = GetRequest.of(OBJECT, ByteRange.of(0, CONTENT.length - 1));
  private static final ObjectClientConfiguration CONFIG =
      ScriptedFaultsObjectClient.fastRetries().build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  private final ManualClock clock = new ManualClock();
  private final String etag = store.put(OBJECT, CONTENT);
  private final RetryingObjectClient client =
      new RetryingObjectClient(faults, CONFIG, metrics, clock, clock);

  @AfterEach
  void close() {
    client.close();
  }

  private static byte[] readAll(CompletableFuture<ObjectContent> future) throws Exception {
    try (ObjectContent content = future.get(10, TimeUnit.SECONDS)) {
      return content.stream().readAllBytes();
    }
  }

  @Test
  void aGetWithoutHeadersByTheColdDeadlineIsHedgedAndTheCopyWins() throws Exception {
    faults.thenHang();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(Duration.ofNanos(ResponseTimes.COLD_HEDGE_NANOS - 1));
    assertFalse(response.isDone(), "no copy before the hedge deadline");
    assertEquals(0, store.gets().size());

    clock.advance(Duration.ofNanos(1));
    assertArrayEquals(CONTENT, readAll(response));
    assertEquals(1, metrics.get(Metric.HEDGED_GETS));
    assertEquals(1, metrics.get(Metric.HEDGES_WON));
    assertEquals(1, store.gets().size());
    assertTrue(faults.hungGets().get(0).isCancelled(), "the stalled first GET is cancelled");
    assertEquals(0, store.openContents());
  }

  @Test
  void aHealthyStoreIsNeverHedged() throws Exception {
    for (int i = 0; i < 200; i++) {
      GetRequest request = GetRequest.of(OBJECT, ByteRange.ofLength(i * 1000L, 1000));
      assertArrayEquals(
          Arrays.copyOfRange(CONTENT, i * 1000, i * 1000 + 1000),
          readAll(client.getObject(request)));
      clock.advance(Duration.ofMillis(20));
    }
    clock.advance(Duration.ofMinutes(1));
    assertEquals(0, metrics.get(Metric.HEDGED_GETS));
    assertEquals(200, store.gets().size());
  }

  @Test
  void theHedgeDeadlineFollowsObservedLatencyDownToItsFloor() throws Exception {
    for (int i = 0; i < ResponseTimes.MIN_SAMPLES; i++) {
      readAll(client.getObject(ALL));
    }
    faults.thenHang();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(CONFIG.hedgeFloor().minusNanos(1));
    assertFalse(response.isDone());
    clock.advance(Duration.ofNanos(1));
    assertArrayEquals(CONTENT, readAll(response));
    assertEquals(1, metrics.get(Metric.HEDGED_GETS));
  }

  @Test
  void aColdClientHedgesAtThreeTimesTheMedianOfItsFirstAnswers() throws Exception {
    answeredAfter(Duration.ofMillis(40));
    answeredAfter(Duration.ofMillis(100)); // slower than 3 x 40 ms: no copy
    answeredAfter(Duration.ofMillis(40));
    assertEquals(0, metrics.get(Metric.HEDGED_GETS));

    faults.thenHang();
    CompletableFuture<ObjectContent> fourth = client.getObject(ALL);
    clock.advance(Duration.ofMillis(119));
    assertFalse(fourth.isDone());
    assertEquals(0, metrics.get(Metric.HEDGED_GETS));
    clock.advance(Duration.ofMillis(1));
    assertArrayEquals(CONTENT, readAll(fourth));
    assertEquals(1, metrics.get(Metric.HEDGED_GETS));
  }

  @Test
  void aGetIsHedgedEvenWhenTheDeadlineRoseWhileItWaited() throws Exception {
    for (int i = 0; i < ResponseTimes.MIN_SAMPLES; i++) {
      readAll(client.getObject(ALL));
    }
    faults.thenHang();
    CompletableFuture<ObjectContent> waiting = client.getObject(ALL);
    // Two slower answers meanwhile raise the deadline from the 50 ms floor to 1.5 x 40 ms.
    faults.thenHang().thenHang();
    List<CompletableFuture<ObjectContent>> slow =
        List.of(client.getObject(ALL), client.getObject(ALL));
    clock.advance(Duration.ofMillis(40));
    faults.hungGets().get(1).complete(store.getObject(ALL).join());
    faults.hungGets().get(2).complete(store.getObject(ALL).join());
    for (CompletableFuture<ObjectContent> answer : slow) {
      assertArrayEquals(CONTENT, readAll(answer));
    }
    clock.advance(Duration.ofMillis(19));
    assertFalse(waiting.isDone(), "the deadline is now 60 ms");
    assertEquals(0, metrics.get(Metric.HEDGED_GETS));
    clock.advance(Duration.ofMillis(1));
    assertArrayEquals(CONTENT, readAll(waiting));
    assertEquals(1, metrics.get(Metric.HEDGED_GETS));
  }

  /** A GET whose first attempt answers {@code after} it was sent. */
  private byte[] answeredAfter(Duration after) throws Exception {
    faults.thenHang();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(after);
    List<CompletableFuture<ObjectContent>> hung = faults.hungGets();
    hung.get(hung.size() - 1).complete(store.getObject(ALL).join());
    return readAll(response);
  }

  /** A GET whose first attempt stalls is copied exactly at {@code deadline}, and the copy wins. */
  private void assertStalledGetCopiedAt(Duration deadline) throws Exception {
    faults.thenHang();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(deadline.minusNanos(1));
    assertFalse(response.isDone(), "copied before " + deadline);
    clock.advance(Duration.ofNanos(1));
    assertArrayEquals(CONTENT, readAll(response));
  }

  @Test
  void whileConnectionsStallCopiesAreSentAtTheNinetiethPercentileWithNoFloor() throws Exception {
    for (int i = 0; i < ResponseTimes.MIN_SAMPLES; i++) {
      answeredAfter(Duration.ofMillis(20));
    }
    // Each of these GETs stalls and its copy, sent at the 50 ms floor, answers at once.
    for (int i = 0; i < ResponseTimes.STALLING_WINS; i++) {
      assertStalledGetCopiedAt(CONFIG.hedgeFloor());
    }
    assertEquals(ResponseTimes.STALLING_WINS, metrics.get(Metric.HEDGES_WON));

    // 8 answers took 20 ms and the winning copies none: the 90th percentile is 20 ms, below the
    // 50 ms floor that applies otherwise.
    assertStalledGetCopiedAt(Duration.ofMillis(20));
    assertEquals(ResponseTimes.STALLING_WINS + 1, metrics.get(Metric.HEDGES_WON));
  }

  @Test
  void aColdClientThatSeesStallsHedgesAtItsSlowestAnswer() throws Exception {
    answeredAfter(Duration.ofMillis(40));
    answeredAfter(Duration.ofMillis(40));
    for (int i = 0; i < ResponseTimes.STALLING_WINS; i++) {
      assertStalledGetCopiedAt(Duration.ofMillis(120)); // 3 x the median of the first answers
    }
    assertStalledGetCopiedAt(Duration.ofMillis(40)); // the slowest answer so far
    assertEquals(ResponseTimes.STALLING_WINS + 1, metrics.get(Metric.HEDGES_WON));
  }

  @Test
  void aStoreWhereCopiesSeldomWinKeepsTheUsualDeadline() throws Exception {
    for (int i = 0; i < ResponseTimes.MIN_SAMPLES; i++) {
      answeredAfter(Duration.ofMillis(20));
    }
    // Fewer winning copies than STALLING_WINS among the last 64 requests: not a stalling store.
    int spacing = ResponseTimes.CALLS_WINDOW / (ResponseTimes.STALLING_WINS - 1) + 1;
    for (int i = 0; i < ResponseTimes.CALLS_WINDOW; i++) {
      if (i % spacing == 0) {
        assertStalledGetCopiedAt(CONFIG.hedgeFloor());
      } else {
        answeredAfter(Duration.ofMillis(20));
      }
    }
    assertEquals(ResponseTimes.STALLING_WINS - 1, metrics.get(Metric.HEDGES_WON));
    assertStalledGetCopiedAt(CONFIG.hedgeFloor()); // the usual deadline
  }

  /** Eight answers at 20 ms, then enough stalled GETs answered by copies to start tying. */
  private void stallUntilTying() throws Exception {
    for (int i = 0; i < ResponseTimes.MIN_SAMPLES; i++) {
      answeredAfter(Duration.ofMillis(20));
    }
    for (int i = 0; i < ResponseTimes.TYING_STALLS; i++) {
      assertStalledGetCopiedAt(
          i < ResponseTimes.STALLING_WINS ? CONFIG.hedgeFloor() : Duration.ofMillis(20));
    }
  }

  @Test
  void whileOneRequestInEightStallsASmallGetIsSentTwiceAtOnceAndTheStalledHalfIsCancelled()
      throws Exception {
    stallUntilTying();
    long hedged = metrics.get(Metric.HEDGED_GETS);
    long won = metrics.get(Metric.HEDGES_WON);
    int sent = faults.sentGets().size();

    try (CapturedLogs logs = new CapturedLogs()) {
      faults.thenHang(); // the first attempt stalls; its tied copy answers at once
      assertArrayEquals(CONTENT, readAll(client.getObject(ALL)));
      assertEquals(sent + 2, faults.sentGets().size(), "sent twice at once");
      assertEquals(hedged + 1, metrics.get(Metric.HEDGED_GETS));
      assertEquals(
          "GET "
              + ALL.describe()
              + ": attempt 2 (TIED) sent as a tied request with attempt 1 (TRY), connections"
              + " stalling",
          logs.line("(TIED) sent"));
      assertEquals(
          "GET "
              + ALL.describe()
              + ": attempt 2 (TIED) answered after 0 ms, 1 attempt (the first sent twice at once)",
          logs.line("answered"),
          "the winner of the pair is logged while its other half still has time to answer");
      CompletableFuture<ObjectContent> stalled =
          faults.hungGets().get(faults.hungGets().size() - 1);
      clock.advance(Duration.ofMillis(20).minusNanos(1));
      assertFalse(stalled.isCancelled(), "the other half has a hedge deadline to answer");
      clock.advance(Duration.ofNanos(1));
      assertTrue(stalled.isCancelled(), "and is cancelled when it has not");
      assertEquals(won + 1, metrics.get(Metric.HEDGES_WON));
      assertEquals(0, store.openContents());
      assertEquals(
          "GET " + ALL.describe() + ": tied attempt 1 (TRY) stalled, cut",
          logs.line("stalled, cut"));
    }
  }

  @Test
  void tyingEndsWhenTheOtherHalfOfEveryPairAnswersInTime() throws Exception {
    stallUntilTying();
    long won = metrics.get(Metric.HEDGES_WON);
    // The stalls leave the window of the last 64 requests one by one; once fewer than 8 remain,
    // requests go out once again.
    int tiedRequests = ResponseTimes.CALLS_WINDOW - ResponseTimes.TYING_STALLS + 1;
    for (int i = 0; i < tiedRequests; i++) {
      int sent = faults.sentGets().size();
      faults.thenHang().thenHang();
      CompletableFuture<ObjectContent> response = client.getObject(ALL);
      assertEquals(sent + 2, faults.sentGets().size(), "request " + i + " is tied");
      List<CompletableFuture<ObjectContent>> pair = faults.hungGets();
      clock.advance(Duration.ofMillis(15));
      pair.get(pair.size() - 1).complete(store.getObject(ALL).join());
      assertArrayEquals(CONTENT, readAll(response));
      clock.advance(Duration.ofMillis(5)); // the other half, within a deadline of the first
      pair.get(pair.size() - 2).complete(store.getObject(ALL).join());
    }
    assertEquals(won, metrics.get(Metric.HEDGES_WON), "no pair stalled");
    assertEquals(0, store.openContents(), "answers of the losing halves are closed");

    int sent = faults.sentGets().size();
    assertArrayEquals(CONTENT, readAll(client.getObject(ALL)));
    assertEquals(sent + 1, faults.sentGets().size(), "7 stalls in the last 64 requests: sent once");
  }

  @Test
  void aTiedPairThatBothStallIsHedgedAtTheDeadline() throws Exception {
    stallUntilTying();
    long hedged = metrics.get(Metric.HEDGED_GETS);
    faults.thenHang().thenHang();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(Duration.ofMillis(20).minusNanos(1));
    assertFalse(response.isDone());
    assertEquals(hedged + 1, metrics.get(Metric.HEDGED_GETS), "the tied copy only");
    clock.advance(Duration.ofNanos(1));
    assertArrayEquals(CONTENT, readAll(response));
    assertEquals(hedged + 2, metrics.get(Metric.HEDGED_GETS));
    List<CompletableFuture<ObjectContent>> hung = faults.hungGets();
    assertTrue(hung.get(hung.size() - 1).isCancelled() && hung.get(hung.size() - 2).isCancelled());
  }

  @Test
  void whileConnectionsStallARetryAfterATryThatStalledIsSentTwiceAtOnce() throws Exception {
    stallUntilTying();
    for (int i = 0; i < 40; i++) {
      // More than the first try sends (its pair, then a copy a deadline while the budget lasts,
      // each abandoning the oldest): every attempt of it stalls.
      faults.thenHang();
    }
    try (CapturedLogs logs = new CapturedLogs()) {
      CompletableFuture<ObjectContent> response = client.getObject(ALL);
      for (int millis = 0;
          millis < 10_000 && !logs.debugLines().toString().contains("retry");
          millis++) {
        clock.advance(Duration.ofMillis(1));
      }
      String retry = logs.line("sent as a retry");
      java.util.regex.Matcher number =
          java.util.regex.Pattern.compile(": attempt (\\d+) \\(TRY\\) sent as a retry$")
              .matcher(retry);
      assertTrue(number.find(), retry);
      int tryNumber = Integer.parseInt(number.group(1));
      assertEquals(
          "GET "
              + ALL.describe()
              + ": attempt "
              + (tryNumber + 1)
              + " (TIED) sent as a tied request with attempt "
              + tryNumber
              + " (TRY), connections stalling",
          logs.line("attempt " + (tryNumber + 1) + " (TIED) sent"));

      List<CompletableFuture<ObjectContent>> hung = faults.hungGets();
      CompletableFuture<ObjectContent> copy = hung.get(hung.size() - 1);
      if (!copy.isDone()) {
        copy.complete(store.getObject(ALL).join());
      }
      assertArrayEquals(CONTENT, readAll(response));
      assertTrue(
          logs.line("answered after").contains("2 attempts (each sent twice at once)"),
          logs.line("answered after"));
    }
  }

  @Test
  void whileConnectionsStallARetryAfterAnErrorIsSentOnce() throws Exception {
    stallUntilTying();
    faults.thenHang().thenHang();
    int sent = faults.sentGets().size();
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    assertEquals(sent + 2, faults.sentGets().size(), "the first try is tied");
    List<CompletableFuture<ObjectContent>> hung = faults.hungGets();
    for (CompletableFuture<ObjectContent> half : hung.subList(hung.size() - 2, hung.size())) {
      half.completeExceptionally(
          new ObjectStoreException("GET: slow down", 503, "SlowDown", "r", true, null));
    }
    clock.advance(Duration.ofSeconds(1));
    assertArrayEquals(CONTENT, readAll(response));
    assertEquals(sent + 3, faults.sentGets().size(), "the retry is sent once: the store is busy");
  }

  @Test
  void aGetOfMoreThanTheTiedMaximumIsNeverTied() throws Exception {
    stallUntilTying();
    ObjectLocation large = ObjectLocation.of("bucket", "large");
    byte[] bytes = TestData.randomBytes(12, (int) HedgingObjectClient.TIED_MAX_BYTES + 1);
    store.put(large, bytes);
    int sent = faults.sentGets().size();
    assertArrayEquals(
        bytes, readAll(client.getObject(GetRequest.of(large, ByteRange.of(0, bytes.length - 1)))));
    assertEquals(sent + 1, faults.sentGets().size());
  }

  @Test
  void anAttemptIsGivenUpAtItsHeadersTimeoutWhichDoublesWithEachTryAndTheClientIsTold()
      throws Exception {
    ManualClock time = new ManualClock();
    faults.thenHang().thenHang();
    CompletableFuture<ObjectContent> response;
    try (RetryingObjectClient noHedges =
        new RetryingObjectClient(
            faults, CONFIG.toBuilder().hedgeMaxCopies(0).build(), metrics, time, time)) {
      response = noHedges.getObject(ALL);
      // Cold: the hedge deadline is 250 ms, so the timeout is max(2 x 1 s, 4 x 250 ms) = 2 s.
      time.advance(Duration.ofSeconds(2).minusNanos(1));
      assertEquals(1, faults.sentGets().size());
      time.advance(Duration.ofNanos(1));
      assertTrue(faults.hungGets().get(0).isCancelled());
      for (int micros = 0; micros <= 2000 && faults.sentGets().size() < 2; micros++) {
        time.advance(Duration.ofNanos(1000)); // through the backoff, up to 2 ms
      }
      assertEquals(2, faults.sentGets().size(), "the second try is sent after its backoff");
      time.advance(Duration.ofSeconds(4).minusNanos(1001));
      assertFalse(faults.hungGets().get(1).isCancelled());
      time.advance(Duration.ofNanos(1001));
      assertTrue(faults.hungGets().get(1).isCancelled());
      time.advance(CONFIG.maxDelay());
      assertArrayEquals(CONTENT, readAll(response));
    }
    assertEquals(
        List.of(
            Optional.of(Duration.ofSeconds(2)),
            Optional.of(Duration.ofSeconds(4)),
            Optional.of(CONFIG.firstByteTimeout())),
        faults.sentGets().stream().map(get -> get.options().headersTimeout()).toList());
  }

  @Test
  void hedgesThatStalledTooAreRefundedWhenALaterCopyWins() throws Exception {
    // Each GET's first attempt and first copy stall; its second copy answers. Were the stalled
    // copies charged, the burst would be spent after ten GETs and the rest would wait.
    for (int i = 0; i < 3 * HedgeBudget.BURST; i++) {
      faults.thenHang().thenHang();
      CompletableFuture<ObjectContent> response = client.getObject(ALL);
      clock.advance(Duration.ofNanos(2 * ResponseTimes.COLD_HEDGE_NANOS));
      assertArrayEquals(CONTENT, readAll(response));
    }
    assertEquals(6L * HedgeBudget.BURST, metrics.get(Metric.HEDGED_GETS));
    assertEquals(3L * HedgeBudget.BURST, metrics.get(Metric.HEDGES_WON));
  }

  @Test
  void aWinningHedgeRefundsOnlyItsOwnTrysHedges() throws Exception {
    try (RetryingObjectClient burstOnly =
        new RetryingObjectClient(
            faults, CONFIG.toBuilder().hedgeBudget(0).build(), metrics, clock, clock)) {
      // The first try: its first attempt hangs, its two hedges fail, then so does the first.
      faults.thenHang().thenFail(new SocketException("Connection reset"));
      faults.thenFail(new SocketException("Connection reset"));
      CompletableFuture<ObjectContent> response = burstOnly.getObject(ALL);
      clock.advance(Duration.ofNanos(2 * ResponseTimes.COLD_HEDGE_NANOS));
      assertEquals(3, faults.sentGets().size());
      faults.hungGets().get(0).completeExceptionally(new SocketException("Connection reset"));
      // The retry: its first attempt hangs, its hedge answers.
      faults.thenHang();
      for (int millis = 0; millis < 1_000 && faults.sentGets().size() < 5; millis++) {
        clock.advance(Duration.ofMillis(1));
      }
      assertArrayEquals(CONTENT, readAll(response));
      assertEquals(3, metrics.get(Metric.HEDGED_GETS));
      assertEquals(1, metrics.get(Metric.HEDGES_WON));

      // Spend what is left: ten calls whose every attempt hangs, hedging for a second.
      for (int i = 0; i < 100; i++) {
        faults.thenHang();
      }
      List<CompletableFuture<ObjectContent>> calls =
          java.util.stream.IntStream.range(0, HedgeBudget.BURST)
              .mapToObj(i -> burstOnly.getObject(ALL))
              .toList();
      clock.advance(Duration.ofSeconds(1));
      assertEquals(
          HedgeBudget.BURST + 1 + 1,
          metrics.get(Metric.HEDGED_GETS),
          "the burst, the winning try's one hedge given back and one more; the first try's two"
              + " hedges are not given back");
      calls.forEach(call -> call.cancel(true));
    }
  }

  @Test
  void aHedgeTheBudgetRefusesIsLoggedOnceATry() throws Exception {
    try (RetryingObjectClient burstOnly =
            new RetryingObjectClient(
                faults, CONFIG.toBuilder().hedgeBudget(0).build(), metrics, clock, clock);
        CapturedLogs logs = new CapturedLogs()) {
      for (int i = 0; i < 3 * HedgeBudget.BURST; i++) {
        faults.thenHang();
      }
      List<CompletableFuture<ObjectContent>> calls =
          java.util.stream.IntStream.range(0, HedgeBudget.BURST + 1)
              .mapToObj(i -> burstOnly.getObject(ALL))
              .toList();
      // Four hedge deadlines: the burst pays for ten copies at the first, none after.
      clock.advance(Duration.ofNanos(4 * ResponseTimes.COLD_HEDGE_NANOS));
      assertEquals(HedgeBudget.BURST, metrics.get(Metric.HEDGED_GETS));
      assertEquals(
          HedgeBudget.BURST + 1,
          logs.debugLines().stream().filter(line -> line.contains("not hedged")).count(),
          "one line for each of the calls' tries");
      calls.forEach(call -> call.cancel(true));
    }
  }

  @Test
  void hedgesThatDoNotWinStayWithinTheBudget() throws Exception {
    int calls = 40;
    for (int i = 0; i < calls * (CONFIG.hedgeMaxCopies() + 1); i++) {
      faults.thenHang();
    }
    List<CompletableFuture<ObjectContent>> responses =
        java.util.stream.IntStream.range(0, calls).mapToObj(i -> client.getObject(ALL)).toList();
    List<String> notHedged;
    try (CapturedLogs logs = new CapturedLogs()) {
      clock.advance(Duration.ofSeconds(3));
      notHedged = logs.debugLines().stream().filter(line -> line.contains("not hedged")).toList();
    }
    assertFalse(notHedged.isEmpty(), "the budget ran out");
    assertTrue(
        notHedged.stream()
            .allMatch(
                line ->
                    line.matches(
                        "GET s3://bucket/key \\[0-199999\\]: attempt \\d+ \\((TRY|HEDGE)\\) not"
                            + " hedged, the hedge budget is spent")),
        notHedged::toString);
    long hedges = metrics.get(Metric.HEDGED_GETS);
    assertEquals(0, metrics.get(Metric.HEDGES_WON));
    assertTrue(
        hedges <= HedgeBudget.BURST + Math.ceil(CONFIG.hedgeBudget() * (calls + hedges)),
        "hedges: " + hedges);
    assertTrue(hedges >= HedgeBudget.BURST, "a cold client may hedge its burst: " + hedges);
    responses.forEach(response -> response.cancel(true));
  }

  @Test
  void everyConnectionStalledFailsWithinTheDeadlineNamingTheRangeAndWhatWasTried()
      throws Exception {
    for (int i = 0; i < 50; i++) {
      faults.thenHang();
    }
    ManualClock time = new ManualClock();
    CompletableFuture<ObjectContent> response;
    try (RetryingObjectClient threeAttempts =
        new RetryingObjectClient(
            faults, CONFIG.toBuilder().maxAttempts(3).build(), metrics, time, time)) {
      response = threeAttempts.getObject(ALL);
      for (int second = 0; second < 60 && !response.isDone(); second++) {
        time.advance(Duration.ofSeconds(1));
      }
    }
    ExecutionException failure =
        org.junit.jupiter.api.Assertions.assertThrows(
            ExecutionException.class, () -> response.get(1, TimeUnit.SECONDS));
    ObjectStoreException error = assertInstanceOf(ObjectStoreException.class, failure.getCause());
    assertEquals(ErrorKind.STALLED, error.kind(), "a given-up stall is still a stall");
    assertFalse(error.isRetryable());
    java.util.regex.Matcher message =
        java.util.regex.Pattern.compile(
                "GET s3://bucket/key \\[0-199999\\]: no response headers within 5000 ms"
                    + " \\(gave up after 3 attempts and (\\d+) hedges\\)")
            .matcher(error.getMessage());
    assertTrue(message.matches(), error.getMessage());
    long hedges = Long.parseLong(message.group(1));
    assertEquals(hedges, metrics.get(Metric.HEDGED_GETS));
    assertTrue(hedges <= HedgeBudget.BURST + 1, "hedges beyond the budget: " + hedges);
    assertTrue(time.nanos() < CONFIG.retryDeadline().toNanos(), "failed at " + time.nanos());
    assertTrue(faults.hungGets().stream().allMatch(CompletableFuture::isCancelled));
    assertEquals(3 + hedges, faults.hungGets().size());
  }

  @Test
  void aStalledBodyIsCutAndResumedFromItsFirstMissingByte() throws Exception {
    faults.thenStallBodyAfter(70_000);
    ObjectContent content = client.getObject(ALL).get(10, TimeUnit.SECONDS);
    CompletableFuture<byte[]> read =
        CompletableFuture.supplyAsync(
            () -> {
              try (content) {
                return content.stream().readAllBytes();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    for (int i = 0; i < 200 && !read.isDone(); i++) {
      clock.advance(CONFIG.stallFloor());
      try {
        read.get(50, TimeUnit.MILLISECONDS);
      } catch (TimeoutException stillBlocked) {
        // The reader has not reached the stall yet, or the cut has not been seen: move on.
      }
    }
    assertArrayEquals(CONTENT, read.get(10, TimeUnit.SECONDS));
    assertEquals(1, metrics.get(Metric.STALLED_GETS_ABANDONED));
    assertEquals(1, metrics.get(Metric.BODIES_RESUMED));
    List<GetRequest> gets = store.gets();
    assertEquals(2, gets.size(), gets::toString);
    assertEquals(ByteRange.of(70_000, CONTENT.length - 1), gets.get(1).range());
    assertEquals(Optional.of(etag), gets.get(1).etag());
  }

  @Test
  void aBodyWhoseResumeGaveUpFailsWithoutAnotherResume() throws Exception {
    // The GET of the rest fails with an error that is no ObjectStoreException (as S3A's are), and
    // with one attempt its call gives up at once: the read ends there, naming the error's kind.
    faults.thenCutBodyAfter(1_000).thenFail(new SocketException("Connection reset"));
    ManualClock time = new ManualClock();
    try (RetryingObjectClient oneAttempt =
            new RetryingObjectClient(
                faults, CONFIG.toBuilder().maxAttempts(1).build(), metrics, time, time);
        ObjectContent content = oneAttempt.getObject(ALL).get(10, TimeUnit.SECONDS)) {
      assertArrayEquals(Arrays.copyOf(CONTENT, 1_000), content.stream().readNBytes(1_000));
      IOException e = assertThrows(IOException.class, () -> content.stream().read());
      ObjectStoreException gaveUp = assertInstanceOf(ObjectStoreException.class, e);
      assertEquals("Connection reset (gave up after 1 attempt)", gaveUp.getMessage());
      assertEquals(ErrorKind.TRANSIENT, gaveUp.kind());
      assertFalse(gaveUp.isRetryable());
    }
    assertEquals(2, faults.sentGets().size(), "the first GET and one GET of the rest");
    assertEquals(1, metrics.get(Metric.BODIES_RESUMED));
  }

  @Test
  void aReaderThatMerelyPausesIsNeverCut() throws Exception {
    try (ObjectContent content = client.getObject(ALL).get(10, TimeUnit.SECONDS)) {
      byte[] first = content.stream().readNBytes(1000);
      clock.advance(Duration.ofMinutes(5));
      byte[] rest = content.stream().readAllBytes();
      assertArrayEquals(Arrays.copyOf(CONTENT, 1000), first);
      assertArrayEquals(Arrays.copyOfRange(CONTENT, 1000, CONTENT.length), rest);
    }
    assertEquals(0, metrics.get(Metric.STALLED_GETS_ABANDONED));
    assertEquals(1, store.gets().size());
  }

  @Test
  void throttlingWith429IsRetried() throws Exception {
    faults.thenFail(
        new ObjectStoreException(
            "GET: too many requests", 429, "TooManyRequests", "r", true, null));
    CompletableFuture<ObjectContent> response = client.getObject(ALL);
    clock.advance(Duration.ofSeconds(1));
    assertArrayEquals(CONTENT, readAll(response));
    assertEquals(1, metrics.get(Metric.RETRIES));
  }
}
