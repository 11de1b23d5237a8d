package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.it.s3a.SeekwellS3aSetup;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read patterns of a query engine, through a proxy that faults a quarter of the connections
 * (stalls before headers and mid-body, cuts with FIN and RST, slow first bytes): a task group of
 * announced files read in order through the Iceberg FileIO, two streams reading the column chunks
 * of one large object in parallel (two tasks splitting a file by row groups), both with the default
 * memory limit and a small one, and a vectored read of many ranges through S3A. Every byte equals
 * the object's, and the resilience counters show the faults were met and got around.
 */
@WithS3Server
class EnginePatternsFaultyNetworkMinioTest {

  private static final int TASK_FILES = 12;
  private static final int TASK_FILE_SIZE = 300_000;
  private static final int LARGE = 24 * 1024 * 1024;
  private static final byte[] LARGE_CONTENT = TestData.randomBytes(71, LARGE);
  private static final List<byte[]> TASK_CONTENTS = new ArrayList<>();

  private static S3TestBucket bucket;
  private FaultProxy proxy;

  @BeforeAll
  static void upload(S3TestBucket testBucket) {
    bucket = testBucket;
    bucket.put("large.bin", LARGE_CONTENT);
    for (int i = 0; i < TASK_FILES; i++) {
      byte[] content = TestData.randomBytes(200 + i, TASK_FILE_SIZE);
      TASK_CONTENTS.add(content);
      bucket.put("task/part-" + i + ".bin", content);
    }
  }

  @BeforeEach
  void startProxy() throws IOException {
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterEach
  void stopProxy() throws IOException {
    proxy.close();
  }

  /**
   * Every fault, each with Seekwell's default memory limit and with a small one (GETs of at most
   * the limit's sixteenth, little read-ahead): the faults must be got around the same way.
   */
  static Stream<Arguments> faultsAndMemoryLimits() {
    return Arrays.stream(ConnectionFault.values())
        .flatMap(fault -> Stream.of(Arguments.of(fault, "default"), Arguments.of(fault, "16MB")));
  }

  private SeekwellS3FileIO fileIo(String memoryLimit) {
    Map<String, String> properties = IcebergS3Properties.of(bucket.endpoint(), proxy.uri());
    if (!memoryLimit.equals("default")) {
      properties.put("seekwell.physicalio.max.memory.limit", memoryLimit);
    }
    properties.put("seekwell.client.stall.floor", "300ms");
    properties.put("seekwell.logicalio.announced.prefetch.files", "4");
    SeekwellS3FileIO io = new SeekwellS3FileIO();
    io.initialize(properties);
    return io;
  }

  /**
   * Faults a quarter of the connections, the first among them, so that even a pattern of a few GETs
   * meets the fault.
   */
  private void faultAQuarter(ConnectionFault fault) {
    long seed = 300 + fault.ordinal();
    while (new Random(seed).nextDouble() >= 0.25) {
      seed++;
    }
    proxy.faultConnections(fault, 0.25, seed);
  }

  /** Some connections were faulted, and Seekwell's counters show it got around them. */
  private void assertFaultsMetAndHandled(ConnectionFault fault, MetricsSnapshot metrics) {
    assertTrue(
        proxy.faultedConnections() > 0,
        () -> "no connection of " + proxy.connections() + " was faulted");
    if (fault == ConnectionFault.SLOW_FIRST_BYTE) {
      return; // slow, not broken: waiting or hedging are both right
    }
    long handled =
        metrics.get(Metric.HEDGES_WON)
            + metrics.get(Metric.STALLED_GETS_ABANDONED)
            + metrics.get(Metric.BODIES_RESUMED)
            + metrics.get(Metric.RETRIES);
    assertTrue(
        handled > 0, () -> fault + ": nothing was hedged, cut, resumed or retried: " + metrics);
  }

  @ParameterizedTest(name = "{0} on a quarter of the connections, memory limit {1}")
  @MethodSource("faultsAndMemoryLimits")
  void aTaskGroupOfAnnouncedFilesReadsRight(ConnectionFault fault, String memoryLimit)
      throws IOException {
    faultAQuarter(fault);
    try (SeekwellS3FileIO io = fileIo(memoryLimit)) {
      // As Spark's Iceberg reader does: every file of the task named with its length first.
      List<InputFile> files = new ArrayList<>();
      for (int i = 0; i < TASK_FILES; i++) {
        files.add(
            io.newInputFile("s3://" + bucket.name() + "/task/part-" + i + ".bin", TASK_FILE_SIZE));
      }
      for (int i = 0; i < TASK_FILES; i++) {
        byte[] bytes = new byte[TASK_FILE_SIZE];
        try (SeekableInputStream in = files.get(i).newStream()) {
          ((RangeReadable) in).readFully(0, bytes, 0, TASK_FILE_SIZE);
        }
        assertArrayEquals(TASK_CONTENTS.get(i), bytes, files.get(i).location());
      }
      assertTrue(io.seekwellMetrics().get(Metric.PREFETCHED_BYTES) > 0, "the files were announced");
      assertFaultsMetAndHandled(fault, io.seekwellMetrics());
    }
  }

  @ParameterizedTest(name = "{0} on a quarter of the connections, memory limit {1}")
  @MethodSource("faultsAndMemoryLimits")
  void twoStreamsReadColumnChunksOfOneObjectInParallel(ConnectionFault fault, String memoryLimit)
      throws Exception {
    faultAQuarter(fault);
    List<List<ByteRange>> tasks = new ArrayList<>();
    for (int task = 0; task < 2; task++) {
      // Each task's half of the object: four "row groups" of three "column chunks" each.
      List<ByteRange> chunks = new ArrayList<>();
      for (int rowGroup = 0; rowGroup < 4; rowGroup++) {
        long start = (long) task * LARGE / 2 + (long) rowGroup * LARGE / 8;
        for (int chunk = 0; chunk < 3; chunk++) {
          chunks.add(ByteRange.ofLength(start + chunk * 700_000, 300_000 + chunk * 50_000));
        }
      }
      tasks.add(chunks);
    }
    try (SeekwellS3FileIO io = fileIo(memoryLimit)) {
      readLargeInParallel(io, tasks);
      assertFaultsMetAndHandled(fault, io.seekwellMetrics());
    }
  }

  /**
   * Sixteen streams read through Iceberg's Apache client with a pool of four connections that waits
   * at most a millisecond for one and retries nothing itself: Seekwell holds at most three of them
   * at once, so no request waits inside the HTTP client (one that did would fail), and the others
   * wait in Seekwell, where no hedge deadline runs.
   */
  @ParameterizedTest(name = "stalls before headers on a quarter of the connections: {0}")
  @ValueSource(booleans = {false, true})
  void manyStreamsShareASmallConnectionPoolWithoutWaitingInIt(boolean stalls) throws Exception {
    if (stalls) {
      faultAQuarter(ConnectionFault.STALL_BEFORE_HEADERS);
    }
    Map<String, String> properties = IcebergS3Properties.of(bucket.endpoint(), proxy.uri());
    properties.put("http-client.apache.max-connections", "4");
    properties.put("http-client.apache.connection-acquisition-timeout-ms", "1");
    properties.put("s3.retry.num-retries", "0");
    properties.put("seekwell.client.stall.floor", "300ms");
    List<List<ByteRange>> tasks = new ArrayList<>();
    for (int task = 0; task < 16; task++) {
      Random random = new Random(task);
      List<ByteRange> reads = new ArrayList<>();
      for (int read = 0; read < 4; read++) {
        int length = 100_000 + random.nextInt(400_000);
        reads.add(ByteRange.ofLength(random.nextInt(LARGE - length), length));
      }
      tasks.add(reads);
    }
    SeekwellS3FileIO io = new SeekwellS3FileIO();
    io.initialize(properties);
    try (io) {
      readLargeInParallel(io, tasks);
      MetricsSnapshot metrics = io.seekwellMetrics();
      assertTrue(metrics.get(Metric.REQUESTS_QUEUED) > 0, () -> "nothing waited: " + metrics);
      assertEquals(0, metrics.get(Metric.ERRORS_OTHER), () -> metrics.toString());
      if (stalls) {
        assertFaultsMetAndHandled(ConnectionFault.STALL_BEFORE_HEADERS, metrics);
      } else {
        assertEquals(0, metrics.get(Metric.ERRORS_NETWORK), () -> metrics.toString());
        assertEquals(0, metrics.get(Metric.RETRIES), () -> metrics.toString());
      }
    }
  }

  /**
   * Reads the large object with one stream per task at once, each task its ranges in order, as
   * engine tasks read column chunks; every byte must be the object's.
   */
  private static void readLargeInParallel(SeekwellS3FileIO io, List<List<ByteRange>> tasks)
      throws Exception {
    String location = "s3://" + bucket.name() + "/large.bin";
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (List<ByteRange> ranges : tasks) {
        readers.add(
            pool.submit(
                () -> {
                  try (SeekableInputStream in = io.newInputFile(location, LARGE).newStream()) {
                    for (ByteRange range : ranges) {
                      int offset = (int) range.start();
                      int length = (int) range.length();
                      byte[] bytes = new byte[length];
                      ((RangeReadable) in).readFully(offset, bytes, 0, length);
                      assertArrayEquals(
                          Arrays.copyOfRange(LARGE_CONTENT, offset, offset + length), bytes);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> reader : readers) {
        reader.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest(name = "{0} on a quarter of the connections")
  @EnumSource(ConnectionFault.class)
  void aVectoredReadOfManyRangesReadsRight(ConnectionFault fault) throws Exception {
    Configuration conf = SeekwellS3aSetup.throughFaultProxy(bucket, proxy.uri());
    faultAQuarter(fault);
    List<FileRange> ranges = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      ranges.add(FileRange.createFileRange((long) i * (LARGE / 64) + i * 17L, 20_000 + i * 300));
    }
    try (FileSystem fs = FileSystem.newInstance(URI.create("s3a://" + bucket.name() + "/"), conf);
        // With its length given, as engines open the files they planned: no HEAD, only GETs.
        FSDataInputStream in =
            fs.openFile(new org.apache.hadoop.fs.Path("/large.bin"))
                .opt("fs.option.openfile.length", Long.toString(LARGE))
                .build()
                .get()) {
      in.readVectored(ranges, ByteBuffer::allocate);
      for (FileRange range : ranges) {
        ByteBuffer data = range.getData().get(120, TimeUnit.SECONDS);
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        int offset = (int) range.getOffset();
        assertArrayEquals(
            Arrays.copyOfRange(LARGE_CONTENT, offset, offset + range.getLength()),
            bytes,
            "range at " + offset);
      }
      Map<String, Long> counters = in.getIOStatistics().counters();
      assertEquals(
          true, counters.containsKey("seekwell_hedges_won"), () -> "counters: " + counters);
      long handled =
          counters.get("seekwell_hedges_won")
              + counters.get("seekwell_stalled_gets_abandoned")
              + counters.get("seekwell_bodies_resumed")
              + counters.get("seekwell_retries");
      assertTrue(proxy.faultedConnections() > 0, "no connection was faulted");
      assertTrue(
          fault == ConnectionFault.SLOW_FIRST_BYTE || handled > 0,
          () -> fault + ": nothing was hedged, cut, resumed or retried: " + counters);
    }
  }
}
