package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Random reads through the memory and disk tiers, by three factories one after another on one
 * directory, with a memory limit small enough that blocks are evicted and read again, and
 * optionally a byte of the data file flipped between factories: every byte equals the object's.
 */
class DiskTierPropertyTest {

  private static final int KIB = 1024;
  private static final int MEMORY_LIMIT = 256 * KIB;
  private static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;

  @Provide
  Arbitrary<List<int[]>> reads() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 700 * KIB),
            Arbitraries.integers().between(1, 90 * KIB))
        .as((position, length) -> new int[] {position, length})
        .list()
        .ofMinSize(1)
        .ofMaxSize(12);
  }

  @Property(tries = 60)
  void everyByteReadThroughBothTiersIsTheObjects(
      @ForAll @IntRange(min = 1, max = 700 * KIB) int length,
      @ForAll("reads") List<int[]> first,
      @ForAll("reads") List<int[]> second,
      @ForAll("reads") List<int[]> third,
      @ForAll boolean corruptBetween,
      @ForAll @IntRange(min = 0, max = 700 * KIB) int corruptAt)
      throws IOException {
    Path directory = Files.createTempDirectory("seekwell-disk-tier");
    try {
      InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
      ObjectLocation location = ObjectLocation.of("b", "k");
      byte[] content = TestData.randomBytes(length, length);
      ObjectMetadata metadata = ObjectMetadata.of(length, store.put(location, content));
      for (List<int[]> reads : List.of(first, second, third)) {
        try (PhysicalIO io = physicalIO(store, directory);
            ObjectReader reader = io.open(location, metadata, IMMUTABLE)) {
          for (int[] read : reads) {
            int position = read[0] % length;
            int wanted = Math.min(read[1], length - position);
            byte[] bytes = new byte[wanted];
            int done = 0;
            while (done < wanted) {
              done += reader.read(position + done, bytes, done, wanted - done);
            }
            assertArrayEquals(Arrays.copyOfRange(content, position, position + wanted), bytes);
          }
          assertTrue(
              io.memoryHighWaterMark() <= MEMORY_LIMIT,
              "blocks pinned for the disk writer count in the bound: " + io.memoryHighWaterMark());
        }
        if (corruptBetween) {
          flipByte(directory, corruptAt);
        }
      }
    } finally {
      try (Stream<Path> files = Files.walk(directory)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }

  private static PhysicalIO physicalIO(InMemoryObjectClient store, Path directory) {
    return new PhysicalIO(
        store,
        PhysicalIOConfiguration.builder()
            .maxMemoryLimit(MEMORY_LIMIT)
            .readAheadBytes(16 * KIB)
            .targetRequestSize(48 * KIB)
            .maxRequestSize(48 * KIB)
            .metadataCacheSize(100)
            .readTimeout(Duration.ofMinutes(1))
            .fetchThreads(3)
            .coalesceTolerance(0)
            .build(),
        DiskCacheConfiguration.in(directory, 64L * KIB * KIB),
        new DiskCaches(),
        new Metrics(),
        Ticker.system());
  }

  private static void flipByte(Path directory, int position) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path data : files.filter(file -> file.toString().endsWith(".data")).toList()) {
        try (FileChannel channel =
            FileChannel.open(data, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          if (position < channel.size()) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) ~one.get(0));
            channel.write(one.rewind(), position);
          }
        }
      }
    }
  }
}
