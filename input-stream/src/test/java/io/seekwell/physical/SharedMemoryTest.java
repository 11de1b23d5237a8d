package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Several factories' physical IO in one JVM, drawing from one budget and one pool of pages: the
 * budget is never exceeded, pages are reused rather than made anew, and a factory short of memory
 * gets it from another's blocks.
 */
class SharedMemoryTest {

  private static final int MIB = 1 << 20;
  private static final FetchContext CONTEXT = Contexts.MUTABLE;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());

  private static PhysicalIOConfiguration limitedTo(long bytes) {
    return PhysicalIOConfiguration.builder()
        .maxMemoryLimit(bytes)
        .targetRequestSize(MIB)
        .maxRequestSize(MIB)
        .fetchThreads(4)
        .build();
  }

  private PhysicalIO physicalIO(PhysicalIOConfiguration configuration, PagePool pool) {
    return new PhysicalIO(
        store,
        configuration,
        DiskCacheConfiguration.OFF,
        new DiskCaches(),
        UsableSpace.FILE_STORE,
        pool,
        new Metrics(),
        Ticker.system());
  }

  /** Puts {@code count} objects of {@code length} bytes; returns their contents. */
  private List<byte[]> put(String prefix, int count, int length) {
    List<byte[]> contents = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] content = TestData.randomBytes(prefix.hashCode() + i, length);
      store.put(location(prefix, i), content);
      contents.add(content);
    }
    return contents;
  }

  private static ObjectLocation location(String prefix, int i) {
    return ObjectLocation.of("bucket", prefix + "/" + i);
  }

  private ObjectReader open(PhysicalIO io, String prefix, int i, long length) {
    return io.open(location(prefix, i), length, CONTEXT);
  }

  /** Reads the whole object in reads of {@code chunk} bytes and checks every byte. */
  private static void readWhole(ObjectReader reader, byte[] content, int chunk) throws IOException {
    byte[] read = new byte[content.length];
    for (int done = 0; done < read.length; ) {
      done += reader.read(done, read, done, Math.min(chunk, read.length - done));
    }
    assertArrayEquals(content, read);
  }

  @Test
  void pagesMadeStayWithinOneFactorysLimitAcrossAThousandStreamsOfTenFactories()
      throws IOException {
    List<byte[]> contents = put("flat", 20, MIB + 123);
    PagePool pool = new PagePool(new SharedBudget(64L * MIB));
    long limit = 4L * MIB;
    for (int factory = 0; factory < 10; factory++) {
      try (PhysicalIO io = physicalIO(limitedTo(limit), pool)) {
        for (int stream = 0; stream < 100; stream++) {
          int object = (factory * 7 + stream) % contents.size();
          try (ObjectReader reader = open(io, "flat", object, MIB + 123)) {
            readWhole(reader, contents.get(object), 64 * 1024);
          }
        }
      }
    }
    // Without reuse, 1,000 streams of 1 MiB would have made some 16,000 pages.
    assertTrue(
        pool.pagesMade() <= limit / PagePool.PAGE,
        pool.pagesMade() + " pages made for a factory limit of " + limit);
    assertEquals(pool.keptBytes(), pool.budget().bound().used(), "every block's pages came back");
  }

  @Test
  void aFactoryShortOfTheJvmsMemoryGetsItFromBlocksAnotherFactoryHasRead() throws IOException {
    List<byte[]> first = put("first", 1, 2 * MIB);
    List<byte[]> second = put("second", 1, MIB);
    PagePool pool = new PagePool(new SharedBudget(2L * MIB));
    try (PhysicalIO filling = physicalIO(limitedTo(2L * MIB), pool);
        PhysicalIO arriving = physicalIO(limitedTo(2L * MIB), pool);
        ObjectReader held = open(filling, "first", 0, 2 * MIB)) {
      readWhole(held, first.get(0), 256 * 1024);
      assertTrue(filling.memoryUsed() > MIB, filling.memoryUsed() + " bytes held by the first");

      try (ObjectReader reader = open(arriving, "second", 0, MIB)) {
        readWhole(reader, second.get(0), 256 * 1024);
        int gets = store.gets().size();
        readWhole(reader, second.get(0), 256 * 1024);
        assertEquals(gets, store.gets().size(), "the second read is served from cached blocks");
      }
      assertEquals(MIB, arriving.memoryUsed());
      assertTrue(filling.memoryUsed() <= MIB, filling.memoryUsed() + " bytes left to the first");
      assertTrue(pool.budget().bound().highWaterMark() <= 2L * MIB);
    }
  }

  /**
   * Whatever the factories' limits and the JVM's, and whatever objects they read where, every byte
   * is the object's and the factories' blocks together never exceed the JVM's limit.
   */
  @Property(tries = 30)
  void severalFactoriesNeverExceedTheJvmsBudget(
      @ForAll @IntRange(min = 1, max = 8) int jvmMib,
      @ForAll @IntRange(min = 2, max = 4) int factories,
      @ForAll long seed)
      throws IOException {
    List<byte[]> contents = put("property", 6, 3 * MIB + 17);
    SplittableRandom random = new SplittableRandom(seed);
    PagePool pool = new PagePool(new SharedBudget((long) jvmMib * MIB));
    List<PhysicalIO> ios = new ArrayList<>();
    List<ObjectReader> readers = new ArrayList<>();
    try {
      for (int i = 0; i < factories; i++) {
        PhysicalIO io = physicalIO(limitedTo(random.nextLong(MIB / 2, 8L * MIB)), pool);
        ios.add(io);
        for (int object = 0; object < contents.size(); object++) {
          readers.add(open(io, "property", object, contents.get(object).length));
        }
      }
      for (int read = 0; read < 60; read++) {
        int pick = random.nextInt(readers.size());
        byte[] content = contents.get(pick % contents.size());
        int position = random.nextInt(content.length);
        int length = 1 + random.nextInt(Math.min(2 * MIB, content.length - position));
        byte[] bytes = new byte[length];
        for (int done = 0; done < length; ) {
          done += readers.get(pick).read(position + done, bytes, done, length - done);
        }
        assertArrayEquals(Arrays.copyOfRange(content, position, position + length), bytes);
        assertTrue(pool.budget().bound().used() <= (long) jvmMib * MIB);
      }
      assertTrue(pool.budget().bound().highWaterMark() <= (long) jvmMib * MIB);
    } finally {
      readers.forEach(ObjectReader::close);
      ios.forEach(PhysicalIO::close);
    }
    assertEquals(pool.keptBytes(), pool.budget().bound().used(), "every block's pages came back");
  }
}
