package io.seekwell.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.ByteRange;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectClient} must do, as tests: a subclass supplies the client and a way to
 * store objects, and inherits every case. Covers exact bytes for ranges, HEAD, If-Match, the
 * mapping of 404, 403, 412 and 416 to typed exceptions, and bodies read one byte at a time. {@link
 * HttpObjectClientContract} adds the network's failures for clients that speak HTTP.
 */
public abstract class ObjectClientContract {

  private static final int LENGTH = 100_000;

  /** A fresh client under test; the test closes it. */
  protected abstract ObjectClient client() throws Exception;

  /** A client that the store refuses (HTTP 403) for {@code location}; the test closes it. */
  protected abstract ObjectClient refusedClient(ObjectLocation location) throws Exception;

  /** Stores {@code bytes} where a client under test reads {@code key}; returns the location. */
  protected abstract ObjectLocation put(String key, byte[] bytes) throws Exception;

  /**
   * Whether the client's GET responses give the object's length (a ranged GET's {@code
   * Content-Range}); a client that gives it must give it right.
   */
  protected boolean givesObjectLength() {
    return false;
  }

  /** How long a test waits for one answer. */
  protected static final long WAIT_SECONDS = 30;

  protected static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  protected static <E extends Throwable> E failure(Class<E> type, CompletableFuture<?> future) {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
    return assertInstanceOf(type, e.getCause());
  }

  protected static byte[] read(ObjectClient client, GetRequest request) throws Exception {
    try (ObjectContent content = await(client.getObject(request))) {
      assertEquals(request.range(), content.range());
      return content.stream().readAllBytes();
    }
  }

  @Test
  void rangesGiveExactlyTheirBytes() throws Exception {
    byte[] bytes = TestData.randomBytes(1, LENGTH);
    ObjectLocation location = put("ranges.bin", bytes);
    try (ObjectClient client = client()) {
      for (ByteRange range :
          List.of(
              ByteRange.of(0, 0),
              ByteRange.of(0, 99),
              ByteRange.of(LENGTH - 1, LENGTH - 1),
              ByteRange.of(12_345, 67_890),
              ByteRange.of(0, LENGTH - 1))) {
        assertArrayEquals(
            Arrays.copyOfRange(bytes, (int) range.start(), (int) range.end() + 1),
            read(client, GetRequest.of(location, range)),
            range::toString);
      }
    }
  }

  @Test
  void headGivesTheLengthAndTheEtagGetsCarry() throws Exception {
    ObjectLocation location = put("head.bin", TestData.randomBytes(2, LENGTH));
    try (ObjectClient client = client()) {
      ObjectMetadata metadata = await(client.headObject(HeadRequest.of(location)));
      assertEquals(LENGTH, metadata.length());
      try (ObjectContent content =
          await(client.getObject(GetRequest.of(location, ByteRange.of(0, 9))))) {
        assertEquals(metadata.etag(), content.etag());
        if (givesObjectLength() || content.objectLength().isPresent()) {
          assertEquals(OptionalLong.of(LENGTH), content.objectLength());
        }
      }
    }
  }

  @Test
  void ifMatchPassesForTheVersionAndFailsForAnother() throws Exception {
    byte[] first = TestData.randomBytes(3, LENGTH);
    ObjectLocation location = put("versions.bin", first);
    try (ObjectClient client = client()) {
      String etag = await(client.headObject(HeadRequest.of(location))).etag();
      GetRequest pinned = GetRequest.of(location, ByteRange.of(100, 199)).withEtag(etag);
      assertArrayEquals(Arrays.copyOfRange(first, 100, 200), read(client, pinned));
      put("versions.bin", TestData.randomBytes(4, LENGTH));
      failure(ObjectChangedException.class, client.getObject(pinned));
    }
  }

  @Test
  void aMissingObjectIsFileNotFound() throws Exception {
    ObjectLocation present = put("present.bin", new byte[10]);
    ObjectLocation missing = ObjectLocation.of(present.bucket(), "missing.bin");
    try (ObjectClient client = client()) {
      failure(FileNotFoundException.class, client.headObject(HeadRequest.of(missing)));
      failure(
          FileNotFoundException.class,
          client.getObject(GetRequest.of(missing, ByteRange.of(0, 9))));
    }
  }

  @Test
  void aRefusedRequestIsAccessDenied() throws Exception {
    ObjectLocation location = put("refused.bin", new byte[10]);
    try (ObjectClient client = refusedClient(location)) {
      failure(
          AccessDeniedException.class,
          client.getObject(GetRequest.of(location, ByteRange.of(0, 9))));
    }
  }

  @Test
  void rangesPastTheEndAreEof() throws Exception {
    ObjectLocation location = put("short.bin", TestData.randomBytes(5, 1000));
    try (ObjectClient client = client()) {
      failure(
          EOFException.class, client.getObject(GetRequest.of(location, ByteRange.of(1000, 1099))));
      try (ObjectContent content =
          await(client.getObject(GetRequest.of(location, ByteRange.of(900, 1099))))) {
        InputStream body = content.stream();
        assertThrows(EOFException.class, body::readAllBytes);
      }
    }
  }

  @Test
  void aBodyReadOneByteAtATimeGivesTheSameBytes() throws Exception {
    byte[] bytes = TestData.randomBytes(6, 5000);
    ObjectLocation location = put("bytes.bin", bytes);
    try (ObjectClient client = client();
        ObjectContent content =
            await(client.getObject(GetRequest.of(location, ByteRange.of(0, 4999))))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] one = new byte[1];
      for (int i = 0; i < 2500; i++) {
        out.write(content.stream().read());
      }
      int n;
      while ((n = content.stream().read(one, 0, 1)) > 0) {
        out.write(one, 0, n);
      }
      assertEquals(-1, content.stream().read());
      assertArrayEquals(bytes, out.toByteArray());
    }
  }
}
