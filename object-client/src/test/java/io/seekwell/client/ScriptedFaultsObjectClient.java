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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

/**
 * Wraps an object client and plays a script of faults, one per request in order: fail the request,
 * or let it succeed and cut its body after some bytes. Requests beyond the script pass through.
 */
final class ScriptedFaultsObjectClient implements ObjectClient {

  private final ObjectClient delegate;
  private final Deque<Object> script = new ArrayDeque<>();

  ScriptedFaultsObjectClient(ObjectClient delegate) {
    this.delegate = delegate;
  }

  /** The next request fails with {@code error}. */
  synchronized ScriptedFaultsObjectClient thenFail(IOException error) {
    script.add(error);
    return this;
  }

  /** The next GET succeeds but its body throws a connection reset after {@code bytes} bytes. */
  synchronized ScriptedFaultsObjectClient thenCutBodyAfter(long bytes) {
    script.add(bytes);
    return this;
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
    Object fault = next();
    if (fault instanceof IOException error) {
      return CompletableFuture.failedFuture(error);
    }
    CompletableFuture<ObjectContent> content = delegate.getObject(request);
    if (fault instanceof Long cutAfter) {
      return content.thenApply(
          c -> new ObjectContent(c.range(), c.etag(), new CutStream(c.stream(), cutAfter)));
    }
    return content;
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Delivers {@code limit} bytes, then fails as a reset connection would. */
  private static final class CutStream extends BulkReadInputStream {
    private final InputStream in;
    private long left;

    CutStream(InputStream in, long limit) {
      this.in = in;
      this.left = limit;
    }

    @Override
    protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
      if (left == 0) {
        throw new SocketException("Connection reset");
      }
      int n = in.read(buffer, offset, (int) Math.min(length, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
