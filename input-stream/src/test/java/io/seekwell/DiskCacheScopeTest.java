package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.Directories;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stream factories and the scope of their disk caches: factories given one scope share one slot of
 * the directory; a factory given none has a slot of its own and frees it when it closes.
 */
class DiskCacheScopeTest {

  private static final int LENGTH = 1_500_000;
  private static final S3URI URI = S3URI.of("bucket", "warehouse/t/metadata/snap-1.avro");

  @TempDir Path directory;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(17, LENGTH);
  private final String etag = store.put(URI.location(), content);

  private S3SeekableInputStreamConfiguration configuration() {
    return configuration(DiskCacheConfiguration.in(directory, 64L << 20));
  }

  private static S3SeekableInputStreamConfiguration configuration(DiskCacheConfiguration disk) {
    return S3SeekableInputStreamConfiguration.builder()
        .logicalIO(LogicalIOConfiguration.OFF)
        .diskCache(disk)
        .build();
  }

  /** Reads the whole object, declared immutable, through {@code factory}; returns its counters. */
  private MetricsSnapshot readWhole(S3SeekableInputStreamFactory factory) throws IOException {
    OpenStreamInformation information =
        OpenStreamInformation.builder()
            .objectMetadata(ObjectMetadata.of(LENGTH, etag))
            .immutable(true)
            .build();
    try (S3SeekableInputStream stream = factory.createStream(URI, information)) {
      byte[] bytes = new byte[LENGTH];
      stream.readFully(0, bytes, 0, LENGTH);
      assertArrayEquals(content, bytes);
    }
    return factory.getMetrics();
  }

  private List<String> slots() throws IOException {
    return Directories.subdirectories(directory);
  }

  @Test
  void factoriesGivenOneScopeShareOneSlot() throws IOException {
    DiskCacheScope scope = new DiskCacheScope();
    try (S3SeekableInputStreamFactory first =
            new S3SeekableInputStreamFactory(store, configuration(), scope);
        S3SeekableInputStreamFactory second =
            new S3SeekableInputStreamFactory(store, configuration(), scope)) {
      readWhole(first);
      readWhole(second);
      assertEquals(0, second.getMetrics().get(Metric.DISK_UNAVAILABLE));
      assertEquals(List.of("slot-0"), slots());
    }
  }

  @Test
  void aFactoryGivenNoScopeFreesItsSlotWhenClosed() throws IOException {
    S3SeekableInputStreamFactory alone = new S3SeekableInputStreamFactory(store, configuration());
    try (alone) {
      assertEquals(0, readWhole(alone).get(Metric.DISK_BYTES_READ));
      Conditions.await(
          () -> alone.getMetrics().get(Metric.DISK_BYTES_WRITTEN) == LENGTH,
          Duration.ofMinutes(1),
          "the object written to disk");
    }
    try (FileChannel channel =
            FileChannel.open(
                directory.resolve("slot-0").resolve(".lock"), StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      assertNotNull(lock, "slot-0's lock is free once its only factory closed");
    }
    int getsBefore = store.gets().size();
    try (S3SeekableInputStreamFactory next =
        new S3SeekableInputStreamFactory(store, configuration())) {
      MetricsSnapshot metrics = readWhole(next);
      assertEquals(LENGTH, metrics.get(Metric.DISK_BYTES_READ));
      assertTrue(metrics.get(Metric.DISK_HITS) > 0, metrics::toString);
    }
    assertEquals(getsBefore, store.gets().size(), "GETs of the factory that took slot-0 again");
    assertEquals(List.of("slot-0"), slots());
  }

  @Test
  void aFactoryRefusedForAnotherBoundClosesWhatItOwnsAndLeavesTheScopesCacheInUse()
      throws IOException {
    DiskCacheScope scope = new DiskCacheScope();
    InMemoryObjectClient refusedClient = new InMemoryObjectClient(new Metrics());
    refusedClient.put(URI.location(), content);
    try (S3SeekableInputStreamFactory first =
        new S3SeekableInputStreamFactory(store, configuration(), scope)) {
      S3SeekableInputStreamConfiguration twoSlots =
          configuration(DiskCacheConfiguration.in(directory, 64L << 20, 2));
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> new S3SeekableInputStreamFactory(refusedClient, twoSlots, scope));
      assertTrue(
          refused.getMessage().contains("physicalio.disk.cache.max.slots"), refused.getMessage());
      ExecutionException head =
          assertThrows(
              ExecutionException.class,
              () -> refusedClient.headObject(HeadRequest.of(URI.location())).get());
      assertTrue(head.getCause().getMessage().contains("client is closed"), head::toString);

      MetricsSnapshot metrics = readWhole(first);
      assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE));
      Conditions.await(
          () -> first.getMetrics().get(Metric.DISK_BYTES_WRITTEN) == LENGTH,
          Duration.ofMinutes(1),
          "the first factory's cache, still open, writes the object");
    }
    assertEquals(List.of("slot-0"), slots());
  }
}
