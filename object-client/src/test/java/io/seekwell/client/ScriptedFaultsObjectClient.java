package io.seekwell.client;

import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Wraps an object client and plays a script of faults, one per request in order: fail the request,
 * throw from the send, let it succeed and cut its body after some bytes, never answer it (until
 * cancelled), or let its body stall after some bytes until it is closed. Requests beyond the script
 * pass through.
 */
final class ScriptedFaultsObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final Deque<Object> script = new ArrayDeque<>();
  private final List<CompletableFuture<ObjectContent>> hung = new CopyOnWriteArrayList<>();
  private final List<GetRequest> sent = new CopyOnWriteArrayList<>();

  /** A body that delivers some bytes, then blocks until it is closed. */
  private record Stall(long after) {}

  /** A request whose send throws {@code thrown} instead of returning a future. */
  private record Throws(Throwable thrown) {}

  /** A request that is never answered. */
  private enum Hang {
    INSTANCE
  }

  /**
   * The settings the scripted-fault tests start from: backoffs of a millisecond or two, a 5 s
   * first-byte timeout and a 60 s retry deadline, so that only the faults decide what happens.
   */
  static ObjectClientConfiguration.Builder fastRetries() {
    return ObjectClientConfiguration.builder()
        .baseDelay(Duration.ofMillis(1))
        .maxDelay(Duration.ofMillis(2))
        .firstByteTimeout(Duration.ofSeconds(5))
        .retryDeadline(Duration.ofSeconds(60));
  }

  ScriptedFaultsObjectClient(ObjectClient delegate) {
    this.delegate = delegate;
  }

  /** The next request fails with {@code error}. */
  synchronized ScriptedFaultsObjectClient thenFail(IOException error) {
    script.add(error);
    return this;
  }

  /** The next GET throws {@code unchecked} from the send itself, as a client that blocks may. */
  synchronized ScriptedFaultsObjectClient thenThrow(RuntimeException unchecked) {
    script.add(new Throws(unchecked));
    return this;
  }

  /** The next GET throws {@code error} from the send itself. */
  synchronized ScriptedFaultsObjectClient thenThrow(Error error) {
    script.add(new Throws(error));
    return this;
  }

  /** The next GET succeeds but its body throws a connection reset after {@code bytes} bytes. */
  synchronized ScriptedFaultsObjectClient thenCutBodyAfter(long bytes) {
    script.add(bytes);
    return this;
  }

  /** The next GET is never answered; cancelling its future is the only way out. */
  synchronized ScriptedFaultsObjectClient thenHang() {
    script.add(Hang.INSTANCE);
    return this;
  }

  /** The next GET's body delivers {@code bytes} bytes, then blocks until it is closed. */
  synchronized ScriptedFaultsObjectClient thenStallBodyAfter(long bytes) {
    script.add(new Stall(bytes));
    return this;
  }

  /** The futures of GETs that were never answered, in order. */
  List<CompletableFuture<ObjectContent>> hungGets() {
    return List.copyOf(hung);
  }

  /** Every GET this client was asked to send, in order, hung or not. */
  List<GetRequest> sentGets() {
    return List.copyOf(sent);
  }

  private synchronized Object next() {
    return script.poll();
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    Object fault = next();
    return fault instanceof IOException error
        ? CompletableFuture.failedFuture(error)
        : delegate.headObject(request);
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    sent.add(request);
    Object fault = next();
    if (fault instanceof IOException error) {
      return CompletableFuture.failedFuture(error);
    }
    if (fault instanceof Throws throwing) {
      if (throwing.thrown() instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) throwing.thrown();
    }
    if (fault == Hang.INSTANCE) {
      CompletableFuture<ObjectContent> never = new CompletableFuture<>();
      hung.add(never);
      return never;
    }
    CompletableFuture<ObjectContent> content = delegate.getObject(request);
    if (fault instanceof Long cutAfter) {
      return content.thenApply(c -> c.withStream(new FaultyStream(c.stream(), cutAfter, false)));
    }
    if (fault instanceof Stall stall) {
      return content.thenApply(
          c -> c.withStream(new FaultyStream(c.stream(), stall.after(), true)));
    }
    return content;
  }

  @Override
  public void close() {
    delegate.close();
  }

  /**
   * Delivers {@code limit} bytes, then fails as a reset connection would; with {@code stall}, first
   * blocks until closed (as a stalled connection that a watchdog cuts).
   */
  private static final class FaultyStream extends BulkReadInputStream {
    private final InputStream in;
    private final boolean stall;
    private final CountDownLatch closed = new CountDownLatch(1);
    private long left;

    FaultyStream(InputStream in, long limit, boolean stall) {
      this.in = in;
      this.left = limit;
      this.stall = stall;
    }

    @Override
    protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
      if (left == 0) {
        if (stall) {
          awaitClose();
        }
        throw new SocketException(stall ? "Socket closed" : "Connection reset");
      }
      int n = in.read(buffer, offset, (int) Math.min(length, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }

    private void awaitClose() throws IOException {
      try {
        if (!closed.await(30, TimeUnit.SECONDS)) {
          throw new IOException("test body stalled for 30 s and nobody closed it");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void close() throws IOException {
      closed.countDown();
      in.close();
    }
  }
}
