package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fetching of one block store: its fetch threads and the one GET routine every read of the
 * store goes through (with If-Match once the version is known), timed for the {@link LinkStats}.
 * {@link #close} aborts every GET in flight and stops the threads.
 *
 * <p><b>Design notes.</b> {@code inFlight} (GETs waiting for headers) and {@code bodies} (bodies
 * being read) are concurrent sets, changed by the thread that runs {@link #get} (a fetch thread or
 * a stream thread reading directly) and emptied of their effect by {@link #close} on any thread;
 * {@code closed} is volatile, and a GET sent as the store closes sees it after registering, so
 * either close cancels it or it cancels itself. The link statistics are their own (see {@link
 * LinkStats}).
 */
final class Fetcher implements AutoCloseable {

  private static final AtomicInteger POOL_IDS = new AtomicInteger();

  /** What reads a GET's body. */
  interface BodyReader {
    void read(InputStream body) throws IOException;
  }

  /** What the block store answers about the versions GETs meet. */
  interface Versions {
    /**
     * Checks that {@code content} comes from {@code blocks}' version.
     *
     * @throws ObjectChangedException if it names another version
     */
    void check(ObjectBlocks blocks, ObjectContent content) throws ObjectChangedException;

    /** {@code blocks}' version changed in the store: forget what is known of it. */
    void changed(ObjectBlocks blocks);
  }

  private final ObjectClient client;
  private final Versions versions;
  private final Metrics metrics;
  private final LinkStats link;
  private final Ticker ticker;
  private final long readTimeoutNanos;
  private final ThreadPoolExecutor pool;
  private final Set<CompletableFuture<ObjectContent>> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<ObjectContent> bodies = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Fetching with {@code client} on {@code threads} fetch threads, waiting {@code readTimeoutNanos}
   * at most for a response; GETs are timed with {@code ticker} into {@code link}.
   */
  Fetcher(
      ObjectClient client,
      Versions versions,
      int threads,
      long readTimeoutNanos,
      LinkStats link,
      Metrics metrics,
      Ticker ticker) {
    this.client = client;
    this.versions = versions;
    this.readTimeoutNanos = readTimeoutNanos;
    this.link = link;
    this.metrics = metrics;
    this.ticker = ticker;
    this.pool = DaemonPools.bounded("seekwell-fetch-" + POOL_IDS.incrementAndGet() + "-", threads);
  }

  /**
   * Runs {@code task} on a fetch thread.
   *
   * @throws RejectedExecutionException if the store is closed
   */
  void execute(Runnable task) {
    pool.execute(task);
  }

  /** Runs {@link #get} on a fetch thread; the future completes when the body is read. */
  CompletableFuture<Void> getAsync(
      ObjectBlocks blocks, ByteRange range, FetchContext context, BodyReader reader) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      pool.execute(
          new DaemonPools.Abandonable() {
            @Override
            public void run() {
              try {
                get(blocks, range, context, reader);
                done.complete(null);
              } catch (IOException | RuntimeException | Error e) {
                done.completeExceptionally(e);
              }
            }

            @Override
            public void abandon() {
              done.completeExceptionally(closedBefore(blocks, range, null));
            }
          });
    } catch (RejectedExecutionException e) {
      done.completeExceptionally(closedBefore(blocks, range, e));
    }
    return done;
  }

  private static IOException closedBefore(ObjectBlocks blocks, ByteRange range, Exception cause) {
    return new IOException(
        "The stream factory closed before the GET of "
            + range
            + " of "
            + blocks.key().location()
            + " was sent",
        cause);
  }

  /**
   * The one GET routine: sends a GET of {@code range} of {@code blocks}' version (with If-Match
   * once the version is known), waits for its headers, checks the version, and hands the body to
   * {@code reader}. A changed object is told to the store's {@link Versions}. The GET is aborted if
   * the store closes meanwhile.
   *
   * @throws IOException naming the object and the range, if the GET or the body fails
   */
  void get(ObjectBlocks blocks, ByteRange range, FetchContext context, BodyReader reader)
      throws IOException {
    ensureOpen();
    context.onGet().accept(range);
    GetRequest request =
        new GetRequest(
            blocks.key().location(), range, Optional.ofNullable(blocks.etag()), context.options());
    long sent = ticker.nanos();
    CompletableFuture<ObjectContent> response = client.getObject(request);
    inFlight.add(response);
    try {
      if (closed) {
        response.cancel(true);
      }
      try (ObjectContent content =
          Futures.awaitClosingLate(response, readTimeoutNanos, "GET " + request.describe())) {
        long firstByte = ticker.nanos();
        bodies.add(content);
        try {
          versions.check(blocks, content);
          reader.read(content.stream());
        } finally {
          bodies.remove(content);
        }
        link.record(firstByte - sent, range.length(), ticker.nanos() - firstByte);
      }
    } catch (ObjectChangedException e) {
      versions.changed(blocks);
      throw e;
    } catch (IOException e) {
      throw closed ? new IOException("The stream factory is closed", e) : e;
    } finally {
      inFlight.remove(response);
    }
  }

  /** Counts a GET sent because a read needed its bytes at once. */
  void countDemandGet() {
    metrics.increment(Metric.DEMAND_GET_REQUESTS);
  }

  /**
   * Fails unless the store is open.
   *
   * @throws IOException if it is closed
   */
  void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("The stream factory is closed");
    }
  }

  /** Aborts every GET in flight (waiting for headers or receiving a body), stops the threads. */
  @Override
  public void close() {
    closed = true;
    inFlight.forEach(response -> response.cancel(true));
    bodies.forEach(Futures::closeQuietly);
    DaemonPools.shutdown(pool);
  }
}
