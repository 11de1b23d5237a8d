package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.logical.LogicalIOConfiguration;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which streams read ahead, and how much, on in-memory objects. */
class ReadAheadBehaviourTest {

  private static final int KIB = 1024;
  private static final int MIB = 1024 * KIB;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private S3SeekableInputStreamFactory factory;

  /**
   * Uses a factory with {@code configuration} for the rest of the test, its reads' own misses not
   * widened by the link (which the tests cannot control): a GET without read-ahead is 64 KiB. GETs
   * are not hedged: a machine that stalls would otherwise send a GET twice.
   */
  private void configure(S3SeekableInputStreamConfiguration configuration) {
    S3SeekableInputStreamConfiguration fixedMisses =
        S3SeekableInputStreamConfiguration.builder()
            .physicalIO(configuration.physicalIO().toBuilder().missMaxBytes(64 * KIB).build())
            .diskCache(configuration.diskCache())
            .logicalIO(configuration.logicalIO())
            .client(configuration.client().toBuilder().hedgeMaxCopies(0).build())
            .build();
    factory = new S3SeekableInputStreamFactory(store, fixedMisses);
  }

  @AfterEach
  void close() {
    if (factory != null) {
      factory.close();
    }
  }

  private byte[] put(String key, int length) {
    byte[] content = TestData.randomBytes(key.hashCode(), length);
    store.put(ObjectLocation.of("bucket", key), content);
    return content;
  }

  private S3SeekableInputStream open(String key, InputPolicy policy) throws IOException {
    if (factory == null) {
      configure(S3SeekableInputStreamConfiguration.DEFAULT);
    }
    return factory.createStream(
        S3URI.of("bucket", key), OpenStreamInformation.builder().inputPolicy(policy).build());
  }

  private List<ByteRange> gets() {
    return store.gets().stream().map(GetRequest::range).toList();
  }

  @Test
  void aSmallObjectIsFetchedWholeWithOneGetAtOpen() throws IOException {
    byte[] content = put("small.bin", 5 * MIB);
    try (S3SeekableInputStream stream = open("small.bin", InputPolicy.DEFAULT)) {
      byte[] bytes = new byte[1000];
      stream.readFully(4 * MIB, bytes, 0, bytes.length);
      stream.seek(17);
      stream.read(bytes, 0, 100);
      assertArrayEquals(Arrays.copyOfRange(content, 17, 117), Arrays.copyOf(bytes, 100));
    }
    assertEquals(List.of(ByteRange.of(0, 5 * MIB - 1)), gets());
  }

  @Test
  void anObjectLongerThanAQuarterOfTheMemoryIsNotFetchedWholeAtOpen() throws IOException {
    // At 16 MB an object of 6 MiB is scanned: its bytes would not stay for the next reader, so a
    // reader of 64 KiB of it gets what it reads (widened), not the whole object.
    configureMemory("16MB");
    byte[] content = put("scanned.bin", 6 * MIB);
    try (S3SeekableInputStream stream = open("scanned.bin", InputPolicy.DEFAULT)) {
      assertEquals(List.of(), gets());
      byte[] bytes = new byte[64 * KIB];
      stream.readFully(5 * MIB, bytes, 0, bytes.length);
      assertArrayEquals(Arrays.copyOfRange(content, 5 * MIB, 5 * MIB + 64 * KIB), bytes);
    }
    assertTrue(gets().stream().mapToLong(ByteRange::length).sum() < MIB, () -> "GETs " + gets());
  }

  @Test
  void aRandomAccessStreamGetsNoReadAhead() throws IOException {
    put("random.bin", 5 * MIB);
    try (S3SeekableInputStream stream = open("random.bin", InputPolicy.RANDOM)) {
      assertEquals(List.of(), gets());
      stream.read();
      stream.read();
      stream.seek(3 * MIB);
      stream.read();
    }
    assertEquals(
        List.of(ByteRange.ofLength(0, 64 * KIB), ByteRange.ofLength(3 * MIB, 64 * KIB)), gets());
  }

  @Test
  void keysChooseTheStrategyWhenThePolicyIsDefault() throws IOException {
    put("logs/app.CSV", 20 * MIB);
    put("data/blob.bin", 20 * MIB);
    try (S3SeekableInputStream csv = open("logs/app.CSV", InputPolicy.DEFAULT)) {
      csv.seek(MIB);
      csv.read();
    }
    // A .csv key is sequential from its first read, wherever it is.
    assertEquals(List.of(ByteRange.ofLength(MIB, 2 * MIB)), gets());
    try (S3SeekableInputStream blob = open("data/blob.bin", InputPolicy.DEFAULT)) {
      blob.seek(MIB);
      blob.read();
    }
    // Other keys read ahead only once reads follow each other.
    assertEquals(ByteRange.ofLength(MIB, 64 * KIB), gets().get(1));
  }

  @Test
  void sequentialSuffixesAreConfigurableAndMatchedLiterally() throws IOException {
    configure(
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("seekwell.logicalio.sequential.suffixes", ".c+v, .LOG"), "seekwell.")));
    put("a.c+v", 20 * MIB);
    put("a.ccv", 20 * MIB);
    put("b.log", 20 * MIB);
    for (String key : List.of("a.c+v", "a.ccv", "b.log")) {
      try (S3SeekableInputStream stream = open(key, InputPolicy.DEFAULT)) {
        stream.seek(MIB);
        stream.read();
      }
    }
    assertEquals(
        List.of(
            ByteRange.ofLength(MIB, 2 * MIB),
            ByteRange.ofLength(MIB, 64 * KIB),
            ByteRange.ofLength(MIB, 2 * MIB)),
        gets());
  }

  /** A factory with {@code limit} of block memory and default read-ahead. */
  private void configureMemory(String limit) {
    configure(
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of("seekwell.physicalio.max.memory.limit", limit), "seekwell.")));
  }

  private static byte[] readAll(S3SeekableInputStream stream, int length) throws IOException {
    byte[] bytes = new byte[length];
    for (int done = 0; done < length; ) {
      done += stream.read(bytes, done, Math.min(64 * KIB, length - done));
    }
    return bytes;
  }

  /** Reads {@code key} from start to end with a new sequential stream; checks its bytes. */
  private void scan(String key, byte[] content) throws IOException {
    try (S3SeekableInputStream stream = open(key, InputPolicy.SEQUENTIAL)) {
      assertArrayEquals(content, readAll(stream, content.length));
    }
  }

  @Test
  void aScanOfALargeObjectHoldsOnlyItsReadAheadAndAnArrayOrTwoForReuse() throws IOException {
    configureMemory("64MB");
    scan("scan.bin", put("scan.bin", 96 * MIB));
    // At most: the window (seven eighths of the limit, 56 MiB) and the block being read (a 4 MiB
    // GET). Without dropping read-through blocks the cache would fill up to its 64 MiB limit, and
    // stay full after the scan.
    S3SeekableInputStreamFactory.MemoryUsage memory = factory.getMemoryUsage();
    assertTrue(memory.highWaterMark() <= 60L * MIB, "high-water " + memory.highWaterMark());
    assertTrue(memory.used() <= 8L * MIB, "left after the scan: " + memory.used());
    int getsOfTheScan = gets().size();

    try (S3SeekableInputStream again = open("scan.bin", InputPolicy.SEQUENTIAL)) {
      again.read();
    }
    assertEquals(getsOfTheScan + 1, gets().size(), "a second scan fetches again");
  }

  @Test
  void aSmallMemoryLimitKeepsReadAheadRequestsToASixteenthOfIt() throws IOException {
    configureMemory("32MB");
    scan("narrow.bin", put("narrow.bin", 64 * MIB));
    List<ByteRange> gets = gets();
    assertTrue(gets.stream().allMatch(get -> get.length() <= 2 * MIB), gets.toString());
    assertTrue(gets.stream().anyMatch(get -> get.length() == 2 * MIB), gets.toString());
  }

  @Test
  void aScanKeepsItsBlocksWhileAnotherStreamHasTheObjectOpen() throws IOException {
    configureMemory("64MB");
    byte[] content = put("shared.bin", 48 * MIB);
    try (S3SeekableInputStream other = open("shared.bin", InputPolicy.SEQUENTIAL)) {
      try (S3SeekableInputStream scan = open("shared.bin", InputPolicy.SEQUENTIAL)) {
        assertArrayEquals(content, readAll(scan, content.length));
      }
      int getsOfTheScan = gets().size();
      assertArrayEquals(content, readAll(other, content.length));
      assertEquals(getsOfTheScan, gets().size(), "the second stream reads cached bytes only");
    }
  }

  @Test
  void aScanOfAnObjectUpToAQuarterOfTheLimitStaysCached() throws IOException {
    configureMemory("64MB");
    byte[] content = put("kept.bin", 16 * MIB);
    scan("kept.bin", content);
    int getsOfTheScan = gets().size();
    scan("kept.bin", content);
    assertEquals(getsOfTheScan, gets().size());
  }

  @Test
  void bytesFetchedAheadOfReadsThatMayComeAgainStayCachedWhenReadThrough() throws IOException {
    // A small object is fetched whole at open: its bytes (like a footer) may be read again.
    configureMemory("16MB");
    byte[] content = put("again.bin", 4 * MIB);
    try (S3SeekableInputStream stream = open("again.bin", InputPolicy.DEFAULT)) {
      assertArrayEquals(content, readAll(stream, content.length));
    }
    assertEquals(List.of(ByteRange.of(0, 4 * MIB - 1)), gets());
    try (S3SeekableInputStream stream = open("again.bin", InputPolicy.DEFAULT)) {
      assertArrayEquals(content, readAll(stream, content.length));
    }
    assertEquals(1, gets().size());
  }

  @Test
  void readAheadCanBeTurnedOff() throws IOException {
    configure(
        S3SeekableInputStreamConfiguration.builder().logicalIO(LogicalIOConfiguration.OFF).build());
    put("small.csv", MIB);
    try (S3SeekableInputStream stream = open("small.csv", InputPolicy.SEQUENTIAL)) {
      stream.read();
    }
    assertEquals(List.of(ByteRange.ofLength(0, 64 * KIB)), gets());
  }

  @Test
  void aSequentialScanInBoundedMemoryFetchesEveryByteOnce() throws IOException {
    int length = 64 * MIB;
    byte[] content = put("scan.bin", length);
    long limit = 16L * MIB;
    configure(
        S3SeekableInputStreamConfiguration.builder()
            .physicalIO(PhysicalIOConfiguration.DEFAULT.withMaxMemoryLimit(limit))
            .build());
    byte[] buffer = new byte[64 * KIB];
    try (S3SeekableInputStream stream = open("scan.bin", InputPolicy.SEQUENTIAL)) {
      for (int offset = 0; offset < length; offset += buffer.length) {
        assertEquals(buffer.length, stream.read(buffer, 0, buffer.length));
        if (!Arrays.equals(Arrays.copyOfRange(content, offset, offset + buffer.length), buffer)) {
          throw new AssertionError("wrong bytes at " + offset);
        }
      }
    }
    long fetched = store.gets().stream().mapToLong(get -> get.range().length()).sum();
    assertEquals(length, fetched, gets()::toString);
    assertTrue(factory.getMemoryUsage().highWaterMark() <= limit);
  }
}
