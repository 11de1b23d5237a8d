package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Streams opened knowing only the object's length: no HEAD, version pinned by the first GET. */
class OpenByLengthTest {

  private static final int MIB = 1024 * 1024;
  private static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "data.bin");
  private static final S3URI URI = S3URI.of("bucket", "data.bin");

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final ManualClock clock = new ManualClock();
  private final S3SeekableInputStreamFactory factory =
      new S3SeekableInputStreamFactory(
          store,
          S3SeekableInputStreamConfiguration.builder()
              .physicalIO(PhysicalIOConfiguration.DEFAULT)
              .logicalIO(LogicalIOConfiguration.OFF)
              .build(),
          new DiskCacheScope(),
          clock,
          clock);

  @AfterEach
  void close() {
    factory.close();
  }

  private static OpenStreamInformation byLength(long length) {
    return OpenStreamInformation.builder().objectLength(length).build();
  }

  @Test
  void noHeadAndTheFirstResponsePinsTheVersionForLaterGets() throws IOException {
    byte[] content = TestData.randomBytes(1, 4 * MIB);
    String etag = store.put(OBJECT, content);
    byte[] first = new byte[1000];
    byte[] second = new byte[1000];
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(content.length))) {
      assertEquals(Optional.empty(), stream.etag());
      stream.readFully(10, first, 0, first.length);
      assertEquals(Optional.of(etag), stream.etag());
      stream.readFully(3 * MIB, second, 0, second.length);
    }
    assertArrayEquals(Arrays.copyOfRange(content, 10, 1010), first);
    assertArrayEquals(Arrays.copyOfRange(content, 3 * MIB, 3 * MIB + 1000), second);
    assertEquals(0, store.heads().size());
    List<GetRequest> gets = store.gets();
    assertEquals(2, gets.size(), gets::toString);
    assertEquals(Optional.empty(), gets.get(0).etag());
    assertEquals(Optional.of(etag), gets.get(1).etag());
  }

  @Test
  void laterOpensShareTheCachedBytesWithoutRequests() throws IOException {
    byte[] content = TestData.randomBytes(2, MIB);
    store.put(OBJECT, content);
    byte[] buffer = new byte[50_000];
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(content.length))) {
      stream.readFully(0, buffer, 0, buffer.length);
      try (S3SeekableInputStream byLength = factory.createStream(URI, byLength(content.length));
          S3SeekableInputStream byHead = factory.createStream(URI)) {
        byte[] again = new byte[buffer.length];
        byLength.readFully(0, again, 0, again.length);
        assertArrayEquals(buffer, again);
        byHead.readFully(0, again, 0, again.length);
        assertArrayEquals(buffer, again);
      }
    }
    assertArrayEquals(Arrays.copyOf(content, buffer.length), buffer);
    assertEquals(0, store.heads().size(), "the first response's ETag serves later opens");
    assertEquals(1, store.gets().size(), store.gets()::toString);
  }

  @Test
  void anObjectReplacedAfterTheFirstGetFailsTheStreamInsteadOfMixingVersions() throws IOException {
    byte[] original = TestData.randomBytes(3, 4 * MIB);
    store.put(OBJECT, original);
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(original.length))) {
      stream.readFully(0, new byte[100], 0, 100);
      store.put(OBJECT, TestData.randomBytes(4, 4 * MIB));
      assertThrows(
          ObjectChangedException.class, () -> stream.readFully(3 * MIB, new byte[100], 0, 100));
    }
    try (S3SeekableInputStream fresh = factory.createStream(URI, byLength(original.length))) {
      byte[] buffer = new byte[100];
      fresh.readFully(0, buffer, 0, buffer.length);
      assertArrayEquals(Arrays.copyOf(TestData.randomBytes(4, 4 * MIB), 100), buffer);
    }
  }

  @Test
  void anObjectOverwrittenPastTheMetadataTimeToLiveIsReadAfreshNotFromTheOldBytes()
      throws IOException {
    byte[] original = TestData.randomBytes(6, 4 * MIB);
    byte[] replacement = TestData.randomBytes(7, 4 * MIB);
    store.put(OBJECT, original);
    byte[] buffer = new byte[1000];
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(original.length))) {
      stream.readFully(0, buffer, 0, buffer.length);
    }
    assertArrayEquals(Arrays.copyOf(original, 1000), buffer);
    String newEtag = store.put(OBJECT, replacement);
    clock.advance(PhysicalIOConfiguration.DEFAULT.metadataCacheTtl().plusSeconds(1));

    int gets = store.gets().size();
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(original.length))) {
      stream.readFully(0, buffer, 0, buffer.length);
      assertArrayEquals(Arrays.copyOf(replacement, 1000), buffer);
      assertEquals(gets + 1, store.gets().size(), "the old version's bytes are not served");
      assertEquals(Optional.empty(), store.gets().get(gets).etag());
      assertEquals(Optional.of(newEtag), stream.etag());
      stream.readFully(3 * MIB, buffer, 0, buffer.length);
      assertArrayEquals(Arrays.copyOfRange(replacement, 3 * MIB, 3 * MIB + 1000), buffer);
    }
  }

  @Test
  void withinTheTimeToLiveAnOpenByLengthSharesTheCachedVersion() throws IOException {
    byte[] original = TestData.randomBytes(8, MIB);
    store.put(OBJECT, original);
    byte[] buffer = new byte[1000];
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(original.length))) {
      stream.readFully(0, buffer, 0, buffer.length);
    }
    clock.advance(PhysicalIOConfiguration.DEFAULT.metadataCacheTtl().minusSeconds(1));
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(original.length))) {
      stream.readFully(0, buffer, 0, buffer.length);
    }
    assertArrayEquals(Arrays.copyOf(original, 1000), buffer);
    assertEquals(1, store.gets().size());
  }

  @Test
  void aMissingObjectFailsOnTheFirstRead() throws IOException {
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(1000))) {
      assertTrue(assertThrows(IOException.class, stream::read) instanceof FileNotFoundException);
    }
    assertEquals(0, store.heads().size());
  }

  @Test
  void theLengthGivenBoundsTheStream() throws IOException {
    byte[] content = TestData.randomBytes(5, 1000);
    store.put(OBJECT, content);
    try (S3SeekableInputStream stream = factory.createStream(URI, byLength(500))) {
      assertEquals(500, stream.length());
      byte[] buffer = new byte[600];
      assertEquals(500, stream.read(buffer, 0, 600));
      assertArrayEquals(Arrays.copyOf(content, 500), Arrays.copyOf(buffer, 500));
      assertEquals(
          List.of(ByteRange.of(0, 499)), store.gets().stream().map(GetRequest::range).toList());
    }
    // The response said the object is 1000 bytes: the shorter length was not learnt as its own.
    assertEquals(1000, factory.metadata(URI).length());
    try (S3SeekableInputStream whole = factory.createStream(URI)) {
      assertEquals(1000, whole.length());
    }
    assertEquals(1, store.heads().size());
  }

  @Test
  void aNegativeLengthIsRejected() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> OpenStreamInformation.builder().objectLength(-1));
    assertTrue(error.getMessage().contains("-1"), error.getMessage());
  }
}
