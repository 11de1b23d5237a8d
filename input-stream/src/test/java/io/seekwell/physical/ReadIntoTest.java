package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ObjectReader#readInto}: a range partly cached is read from the cache and the store. */
class ReadIntoTest {

  private static final int MIB = 1 << 20;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "table.parquet");

  /** 8 MiB of memory, GETs of 1 MiB. */
  private static final PhysicalIOConfiguration SMALL_MEMORY =
      PhysicalIOConfiguration.builder()
          .maxMemoryLimit(8 * MIB)
          .targetRequestSize(MIB)
          .maxRequestSize(MIB)
          .readTimeout(Duration.ofMinutes(1))
          .build();

  private final Metrics metrics = new Metrics();
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(5, 32 * MIB);

  ReadIntoTest() {
    store.put(LOCATION, content);
  }

  private PhysicalIO physicalIO() {
    return new PhysicalIO(
        store,
        SMALL_MEMORY,
        DiskCacheConfiguration.OFF,
        new DiskCaches(),
        UsableSpace.FILE_STORE,
        new PagePool(new SharedBudget(SMALL_MEMORY.maxMemoryLimit())),
        metrics,
        Ticker.system());
  }

  private long bytesFetched() {
    return store.gets().stream().mapToLong(get -> get.range().length()).sum();
  }

  @Test
  void aVectoredRangePartlyCachedTakesThoseBytesFromTheBlocksAndOnlyTheRestFromTheStore()
      throws Exception {
    try (PhysicalIO io = physicalIO();
        ObjectReader reader = io.open(LOCATION, content.length, Contexts.MUTABLE)) {
      reader.prefetch(ByteRange.of(0, 6L * MIB - 1), FetchPurpose.SCAN);
      ByteBuffer target = ByteBuffer.allocate(20 * MIB);
      reader.readInto(ByteRange.ofLength(MIB, 20 * MIB), target, 0).get(1, TimeUnit.MINUTES);
      assertArrayEquals(Arrays.copyOfRange(content, MIB, 21 * MIB), target.array());
    }
    assertEquals(21L * MIB, bytesFetched(), "the cached 5 MiB were not fetched again");
    assertEquals(0, store.openContents(), "every body was closed");
  }
}
