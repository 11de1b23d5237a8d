package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.TestData;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileRange;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The IOStatistics of Seekwell's S3A streams count what S3A's classic stream counts for the same
 * reads: bytes of positioned and vectored reads, and vectored ranges before and after merging. The
 * file system statistics of the reading thread, from which engines take a task's input bytes, count
 * every byte it was given, vectored ones too.
 */
class SeekwellS3aStatisticsMinioTest {

  private static final byte[] CONTENT = TestData.randomBytes(31, 3 << 20);
  private static final int FAR = 5 << 19; // 2.5 MiB: more than the 1 MiB merge gap away
  private static final String THREAD_BYTES_READ = "thread_bytes_read";

  /** The stream's counters, and the bytes the thread's file system statistics count for it. */
  private static Map<String, Long> readAndCount(Configuration conf, Path path) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(path.toUri(), conf)) {
      if (!fs.exists(path)) {
        try (FSDataOutputStream out = fs.create(path)) {
          out.write(CONTENT);
        }
      }
      long before = threadBytesRead();
      try (FSDataInputStream in = fs.open(path)) {
        List<FileRange> ranges =
            List.of(
                FileRange.createFileRange(0, 1000),
                FileRange.createFileRange(5000, 1000),
                FileRange.createFileRange(FAR, 1000));
        in.readVectored(ranges, ByteBuffer::allocate);
        for (FileRange range : ranges) {
          ByteBuffer buffer = range.getData().get(30, TimeUnit.SECONDS);
          byte[] bytes = new byte[buffer.remaining()];
          buffer.get(bytes);
          int from = (int) range.getOffset();
          assertArrayEquals(Arrays.copyOfRange(CONTENT, from, from + range.getLength()), bytes);
        }
        byte[] positioned = new byte[500];
        in.readFully(100_000, positioned);
        Map<String, Long> counters = new TreeMap<>(in.getIOStatistics().counters());
        counters.put(THREAD_BYTES_READ, threadBytesRead() - before);
        return counters;
      }
    }
  }

  /** What Spark takes as a task's input bytes: every file system's statistics of this thread. */
  @SuppressWarnings("deprecation") // the call Spark makes
  private static long threadBytesRead() {
    return FileSystem.getAllStatistics().stream()
        .mapToLong(statistics -> statistics.getThreadStatistics().getBytesRead())
        .sum();
  }

  @Test
  void vectoredAndPositionedReadsAreCountedAsByTheClassicStream() throws Exception {
    Path path = new Path("s3a://" + SeekwellS3aSetup.BUCKET + "/statistics/data.bin");
    Configuration seekwell = SeekwellS3aSetup.configure(new Configuration());
    Configuration classic = SeekwellS3aSetup.configure(new Configuration());
    classic.set("fs.s3a.input.stream.type", "classic");

    Map<String, Long> ours = readAndCount(seekwell, path);
    Map<String, Long> theirs = readAndCount(classic, path);
    assertEquals(3500L, ours.get("stream_read_bytes"), ours::toString);
    assertEquals(theirs.get("stream_read_bytes"), ours.get("stream_read_bytes"));
    assertEquals(3L, ours.get("stream_read_vectored_incoming_ranges"));
    assertEquals(
        theirs.get("stream_read_vectored_incoming_ranges"),
        ours.get("stream_read_vectored_incoming_ranges"));
    // Seekwell merges ranges up to 1 MiB apart: the first two ranges become one run.
    assertEquals(2L, ours.get("stream_read_vectored_combined_ranges"));
    assertEquals(1L, ours.get("stream_read_vectored_operations"));
    assertEquals(
        theirs.get("stream_read_vectored_operations"), ours.get("stream_read_vectored_operations"));
    // The classic stream counts a vectored range's bytes in the thread that received them: here it
    // leaves out 3,000 of them.
    assertEquals(3500L, ours.get(THREAD_BYTES_READ), ours::toString);
    assertTrue(ours.get(THREAD_BYTES_READ) >= theirs.get(THREAD_BYTES_READ), theirs::toString);
  }
}
