package io.seekwell.testing;

import io.seekwell.common.ByteRange;
import io.seekwell.common.io.BulkReadInputStream;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A strict in-memory {@link ObjectClient} that behaves as S3 does for HEAD and ranged GET (404, 412
 * on a stale ETag, 416 for a range that starts past the end, a short body for one that ends past
 * it), records every request, and tracks open bodies so tests can check none leaked. Thread-safe.
 */
public final class InMemoryObjectClient implements ObjectClient {

  private record StoredObject(byte[] bytes, String etag) {}

  private final Map<ObjectLocation, StoredObject> objects = new ConcurrentHashMap<>();
  private final List<GetRequest> gets = new CopyOnWriteArrayList<>();
  private final List<HeadRequest> heads = new CopyOnWriteArrayList<>();
  private final Set<InputStream> open = ConcurrentHashMap.newKeySet();
  private final Set<ObjectLocation> refused = ConcurrentHashMap.newKeySet();
  private final AtomicLong versions = new AtomicLong();
  private final Metrics metrics;
  private volatile boolean closed;

  /** A client with no objects that counts requests in {@code metrics}. */
  public InMemoryObjectClient(Metrics metrics) {
    this.metrics = metrics;
  }

  /** Stores {@code bytes} at {@code location} with a new ETag, which it returns. */
  public String put(ObjectLocation location, byte[] bytes) {
    String etag = "\"v" + versions.incrementAndGet() + "\"";
    objects.put(location, new StoredObject(bytes.clone(), etag));
    return etag;
  }

  /** Removes the object at {@code location}, if any: later requests for it get a 404. */
  public void delete(ObjectLocation location) {
    objects.remove(location);
  }

  /** Requests for {@code location} are refused from now on, as S3 does with HTTP 403. */
  public void refuse(ObjectLocation location) {
    refused.add(location);
  }

  /** Every GET received, in order. */
  public List<GetRequest> gets() {
    return List.copyOf(gets);
  }

  /** Every HEAD received, in order. */
  public List<HeadRequest> heads() {
    return List.copyOf(heads);
  }

  /** The number of bodies handed out and not yet closed. */
  public int openContents() {
    return open.size();
  }

  @Override
  public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
    heads.add(request);
    metrics.increment(Metric.HEAD_REQUESTS);
    try {
      StoredObject object = find(request.location(), "HEAD " + request.location());
      return CompletableFuture.completedFuture(
          ObjectMetadata.of(object.bytes().length, object.etag()));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public CompletableFuture<ObjectContent> getObject(GetRequest request) {
    gets.add(request);
    metrics.increment(Metric.GET_REQUESTS);
    String what = "GET " + request.describe();
    try {
      StoredObject object = find(request.location(), what);
      if (request.etag().isPresent() && !request.etag().get().equals(object.etag())) {
        throw new ObjectChangedException(what + ": ETag no longer matches", null);
      }
      ByteRange range = request.range();
      if (range.start() >= object.bytes().length) {
        throw new EOFException(what + ": range starts past the end of the object");
      }
      int end = (int) Math.min(range.end(), object.bytes().length - 1);
      ByteArrayInputStream body =
          new ByteArrayInputStream(
              object.bytes(), (int) range.start(), end - (int) range.start() + 1);
      metrics.add(Metric.BYTES_RECEIVED, end - range.start() + 1);
      TrackedStream stream = new TrackedStream(body, range, open);
      return CompletableFuture.completedFuture(
          new ObjectContent(range, object.etag(), stream, OptionalLong.of(object.bytes().length)));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private StoredObject find(ObjectLocation location, String what) throws IOException {
    if (closed) {
      throw new IOException(what + ": client is closed");
    }
    if (refused.contains(location)) {
      throw new AccessDeniedException(what, null, "access denied (HTTP 403)");
    }
    StoredObject object = objects.get(location);
    if (object == null) {
      throw new FileNotFoundException(what + ": object not found");
    }
    return object;
  }

  @Override
  public void close() {
    closed = true;
  }

  /** A body that reports a short read as EOFException and unregisters itself on close. */
  private static final class TrackedStream extends BulkReadInputStream {
    private final InputStream body;
    private final long expected;
    private final Set<InputStream> open;
    private long delivered;

    TrackedStream(ByteArrayInputStream body, ByteRange range, Set<InputStream> open) {
      this.body = body;
      this.expected = range.length();
      this.open = open;
      open.add(this);
    }

    @Override
    protected int readBytes(byte[] buffer, int offset, int length) throws IOException {
      if (delivered == expected) {
        return -1;
      }
      int n = body.read(buffer, offset, length);
      if (n < 0) {
        throw new EOFException("Body ended after " + delivered + " of " + expected + " bytes");
      }
      delivered += n;
      return n;
    }

    @Override
    public void close() throws IOException {
      open.remove(this);
      body.close();
    }
  }
}
