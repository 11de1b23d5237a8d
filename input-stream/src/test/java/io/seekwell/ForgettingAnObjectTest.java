package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link S3SeekableInputStreamFactory#invalidate} and {@link
 * S3SeekableInputStreamFactory#freshMetadata}: what a writer or a file system's {@code exists()}
 * needs so that no answer predates a write or a delete.
 */
class ForgettingAnObjectTest {

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

  private byte[] readAll(OpenStreamInformation information, int length) throws IOException {
    byte[] bytes = new byte[length];
    try (S3SeekableInputStream stream = factory.createStream(URI, information)) {
      stream.readFully(0, bytes, 0, length);
    }
    return bytes;
  }

  private static OpenStreamInformation byLength(long length) {
    return OpenStreamInformation.builder().objectLength(length).build();
  }

  @Test
  void anObjectOverwrittenWithTheSameLengthIsReadAnewOnceForgotten() throws IOException {
    byte[] first = TestData.randomBytes(1, MIB);
    byte[] second = TestData.randomBytes(2, MIB);
    store.put(OBJECT, first);
    assertArrayEquals(first, readAll(OpenStreamInformation.ofDefaults(), MIB));
    assertArrayEquals(first, readAll(byLength(MIB), MIB));

    store.put(OBJECT, second);
    int gets = store.gets().size();
    factory.invalidate(URI);
    assertArrayEquals(second, readAll(byLength(MIB), MIB));
    assertArrayEquals(second, readAll(OpenStreamInformation.ofDefaults(), MIB));
    assertEquals(gets + 1, store.gets().size(), "the new version, fetched once");
  }

  @Test
  void aDeletedObjectThatIsForgottenIsNotServedFromTheCache() throws IOException {
    store.put(OBJECT, TestData.randomBytes(3, MIB));
    readAll(byLength(MIB), MIB);
    assertEquals(MIB, factory.metadata(URI).length());

    store.delete(OBJECT);
    factory.invalidate(URI);
    assertThrows(FileNotFoundException.class, () -> readAll(byLength(MIB), MIB));
    assertThrows(FileNotFoundException.class, () -> factory.metadata(URI));
  }

  @Test
  void freshMetadataAsksTheStoreAndReplacesWhatWasCached() throws IOException {
    store.put(OBJECT, TestData.randomBytes(4, 100));
    assertEquals(100, factory.metadata(URI).length());
    String etag = store.put(OBJECT, TestData.randomBytes(5, 200));
    assertEquals(100, factory.metadata(URI).length(), "cached");
    int heads = store.heads().size();

    assertEquals(200, factory.freshMetadata(URI, OpenStreamInformation.ofDefaults()).length());
    assertEquals(etag, factory.metadata(URI).etag());
    assertEquals(heads + 1, store.heads().size());

    store.delete(OBJECT);
    assertThrows(
        FileNotFoundException.class,
        () -> factory.freshMetadata(URI, OpenStreamInformation.ofDefaults()));
  }
}
