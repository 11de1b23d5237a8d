package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;
import java.io.FilterInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * GETs are split by a size that follows the link: the target size on a far link, larger on a fast
 * one. Time is simulated: each body advances a manual clock by what its bytes would take at the
 * link's per-GET throughput, so the sizes chosen do not depend on this machine.
 */
class RequestSizeTest {

  private static final int MIB = 1 << 20;
  private static final int LENGTH = 96 * MIB;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "data.bin");

  private final ManualClock clock = new ManualClock();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(11, LENGTH);

  /** The store behind a link on which one GET's body arrives at {@code bytesPerSecond}. */
  private ObjectClient link(double bytesPerSecond) {
    return new ObjectClient() {
      @Override
      public CompletableFuture<ObjectMetadata> headObject(HeadRequest request) {
        return store.headObject(request);
      }

      @Override
      public CompletableFuture<ObjectContent> getObject(GetRequest request) {
        return store
            .getObject(request)
            .thenApply(
                body ->
                    body.withStream(
                        new FilterInputStream(body.stream()) {
                          @Override
                          public int read(byte[] buffer, int offset, int length)
                              throws IOException {
                            int n = super.read(buffer, offset, length);
                            if (n > 0) {
                              clock.advance(Duration.ofNanos((long) (n / bytesPerSecond * 1e9)));
                            }
                            return n;
                          }
                        }));
      }

      @Override
      public void close() {
        store.close();
      }
    };
  }

  /** Reads the object from start to end in 1 MiB reads; returns the GETs' lengths. */
  private List<Long> readThrough(double bytesPerSecond) throws IOException {
    store.put(LOCATION, content);
    S3SeekableInputStreamConfiguration configuration =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                // No hedged GETs: a machine that stalls would otherwise send a GET twice.
                Map.of("physicalio.max.memory.limit", "1GB", "client.hedge.max.copies", "0")));
    byte[] read = new byte[LENGTH];
    try (S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(
                link(bytesPerSecond), configuration, new DiskCacheScope(), clock, clock);
        S3SeekableInputStream stream = factory.createStream(S3URI.of("bucket", "data.bin"))) {
      for (int position = 0; position < LENGTH; position += MIB) {
        assertEquals(MIB, stream.readNBytes(read, position, MIB));
      }
    }
    assertArrayEquals(content, read);
    return store.gets().stream().map(get -> get.range().length()).toList();
  }

  @Test
  void aFarLinkKeepsGetsAtTheTargetSize() throws IOException {
    // 90 MB/s per GET, as from S3: 64 ms of transfer are under 6 MB.
    List<Long> gets = readThrough(90e6);
    assertTrue(gets.stream().allMatch(length -> length <= 8 * MIB), gets.toString());
    assertTrue(gets.contains(8L * MIB), gets.toString());
    assertEquals(LENGTH, gets.stream().mapToLong(Long::longValue).sum(), gets.toString());
  }

  @Test
  void aFastLinkGetsFewerLargerGetsUpToTheLargestSize() throws IOException {
    // 100 GB/s per GET: even shared by every GET in flight, 64 ms carry more than 32 MiB.
    List<Long> gets = readThrough(100e9);
    assertTrue(gets.stream().allMatch(length -> length <= 32 * MIB), gets.toString());
    assertTrue(gets.contains(32L * MIB), gets.toString());
    assertEquals(LENGTH, gets.stream().mapToLong(Long::longValue).sum(), gets.toString());
    // GETs of at most the target size would need at least 12.
    assertTrue(gets.size() < LENGTH / (8 * MIB), gets.toString());
  }
}
