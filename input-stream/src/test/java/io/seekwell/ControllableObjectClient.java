package io.seekwell;

import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps an object client for concurrency tests: measures how many HEADs are in flight at once, can
 * hold HEADs until a number of them arrived, can hang GETs of chosen objects, and can answer with
 * random latency.
 */
final class ControllableObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final AtomicInteger headsInFlight = new AtomicInteger();
  private final AtomicInteger maxHeadsInFlight = new AtomicInteger();
  private final Set<ObjectLocation> hung = ConcurrentHashMap.newKeySet();
  private final CountDownLatch hangRelease = new CountDownLatch(1);
  private final CountDownLatch bodyRelease = new CountDownLatch(1);
  private final Semaphore getsSent = new Semaphore(0);
  private volatile long stallBodiesAfter = -1;
  private volatile CountDownLatch headGate = new CountDownLatch(0);
  private volatile int maxLatencyMillis;
  private volatile long failingPosition = -1;
  private volatile IOException failure;

  ControllableObjectClient(ObjectClient delegate) {
    this.delegate = delegate;
  }

  /** HEADs are answered only once {@code count} of them are in flight (or after 5 s). */
  void holdHeadsUntil(int count) {
    headGate = new CountDownLatch(count);
  }

  /** GETs of {@code location} never answer until {@link #releaseHungGets()}. */
  void hangGets(ObjectLocation location) {
    hung.add(location);
  }

  /** Bodies deliver {@code bytes} bytes, then wait for {@link #releaseStalledBodies()}. */
  void stallBodiesAfter(long bytes) {
    stallBodiesAfter = bytes;
  }

  void releaseStalledBodies() {
    bodyRelease.countDown();
  }

  void releaseHungGets() {
    hangRelease.countDown();
  }

  /** GETs whose range holds {@code position} fail with {@code error}. */
  void failGetsOver(long position, IOException error) {
    failingPosition = position;
    failure = error;
  }

  /** Every answer arrives after a random delay of up to {@code millis}. */
  void randomLatency(int millis) {
    maxLatencyMillis = millis;
  }

  /** Forgets the GETs sent so far: {@link #awaitGets} counts those sent from now on. */
  void countGetsFromNow() {
    getsSent.drainPermits();
  }

  /**
   * Waits until {@code count} more GETs have been sent (hung ones included) since the last wait or
   * {@link #countGetsFromNow}, or until {@code seconds} have passed.
   *
   * @return whether they were sent in time
   */
  boolean awaitGets(int count, long seconds) throws InterruptedException {
    return getsSent.tryAcquire(count, seconds, TimeUnit.SECONDS);
  }

  int maxHeadsInFlight() {
    return maxHeadsInFlight.get();
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    int inFlight = headsInFlight.incrementAndGet();
    maxHeadsInFlight.accumulateAndGet(inFlight, Math::max);
    CountDownLatch gate = headGate;
    gate.countDown();
    return CompletableFuture.runAsync(
            () -> {
              try {
                gate.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            })
        .thenCompose(ignored -> delayed(delegate.headObject(request)))
        .whenComplete((m, e) -> headsInFlight.decrementAndGet());
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    try {
      return answer(request);
    } finally {
      getsSent.release();
    }
  }

  private CompletableFuture<ObjectContent> answer(GetRequest request) {
    if (hung.contains(request.location())) {
      return CompletableFuture.runAsync(
              () -> {
                try {
                  hangRelease.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              })
          .thenCompose(ignored -> delegate.getObject(request));
    }
    if (failingPosition >= 0 && request.range().contains(failingPosition)) {
      return CompletableFuture.failedFuture(failure);
    }
    long stallAfter = stallBodiesAfter;
    CompletableFuture<ObjectContent> answer = delayed(delegate.getObject(request));
    return stallAfter < 0
        ? answer
        : answer.thenApply(
            content ->
                content.withStream(new StallingStream(content.stream(), stallAfter, bodyRelease)));
  }

  /** Delivers some bytes, then blocks until released or closed (or 60 s pass). */
  private static final class StallingStream extends BulkReadInputStream {
    private final InputStream body;
    private final CountDownLatch release;
    private volatile boolean closed;
    private long beforeStall;

    StallingStream(InputStream body, long beforeStall, CountDownLatch release) {
      this.body = body;
      this.beforeStall = beforeStall;
      this.release = release;
    }

    @Override
    protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
      if (beforeStall == 0) {
        try {
          for (int waited = 0; waited < 6000 && !release.await(10, TimeUnit.MILLISECONDS); ) {
            if (closed) {
              throw new SocketException("Socket closed while stalled");
            }
            waited++;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException();
        }
        beforeStall = -1;
      }
      int allowed = beforeStall < 0 ? length : (int) Math.min(length, beforeStall);
      int n = body.read(buffer, offset, allowed);
      if (n > 0 && beforeStall > 0) {
        beforeStall -= n;
      }
      return n;
    }

    @Override
    public void close() throws IOException {
      closed = true;
      body.close();
    }
  }

  private <T> CompletableFuture<T> delayed(CompletableFuture<T> answer) {
    int max = maxLatencyMillis;
    if (max == 0) {
      return answer;
    }
    CompletableFuture<T> later = new CompletableFuture<>();
    timer.schedule(
        () ->
            answer.whenComplete(
                (v, e) -> {
                  if (e != null) {
                    later.completeExceptionally(e);
                  } else if (!later.complete(v) && v instanceof Closeable late) {
                    // Abandoned by the caller: nobody will read it.
                    Futures.closeQuietly(late);
                  }
                }),
        ThreadLocalRandom.current().nextInt(max + 1),
        TimeUnit.MILLISECONDS);
    return later;
  }

  @Override
  public void close() {
    hangRelease.countDown();
    bodyRelease.countDown();
    // Deliver what is still scheduled, so that nothing handed out stays unclosed.
    timer.shutdown();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    delegate.close();
  }
}
