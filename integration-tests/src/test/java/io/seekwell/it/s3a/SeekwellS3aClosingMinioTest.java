package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.TestData;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * File systems that close while streams read, as when an engine's executor scales down: closing one
 * S3A file system (and its Seekwell factory) with GETs of its streams in flight fails no read of
 * another file system's stream in the same JVM, a read of its own stream after it fails with an
 * {@link IOException} that says why, and once both are closed no thread of theirs is left.
 */
class SeekwellS3aClosingMinioTest {

  private static final byte[] CONTENT = TestData.randomBytes(43, 8 << 20);
  private static final int HEAD = 1 << 20;

  @Test
  void closingOneFileSystemWhileItReadsFailsNoReadOfAnother() throws Exception {
    Path path = new Path("s3a://" + SeekwellS3aSetup.BUCKET + "/closing/data.bin");
    Configuration conf = SeekwellS3aSetup.configure(new Configuration());
    // Read-ahead from the first read on, in GETs of 1 MiB: each stream is still fetching when the
    // first file system closes.
    conf.set("fs.s3a.experimental.input.fadvise", "sequential");
    conf.set("fs.s3a.seekwell.physicalio.target.request.size", "1MB");
    conf.set("fs.s3a.seekwell.physicalio.max.request.size", "1MB");
    Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
    FileSystem closing = FileSystem.newInstance(path.toUri(), conf);
    FileSystem staying = FileSystem.newInstance(path.toUri(), conf);
    try (FSDataOutputStream out = closing.create(path, true)) {
      out.write(CONTENT);
    }
    try (FSDataInputStream closed = closing.open(path);
        FSDataInputStream reading = staying.open(path)) {
      byte[] head = new byte[HEAD];
      closed.readFully(head);
      reading.readFully(head);

      closing.close();

      byte[] rest = new byte[CONTENT.length - HEAD];
      reading.readFully(rest);
      assertArrayEquals(Arrays.copyOfRange(CONTENT, HEAD, CONTENT.length), rest);
      IOException failure = assertThrows(IOException.class, () -> closed.readFully(rest));
      assertTrue(String.valueOf(failure.getMessage()).contains("closed"), failure::toString);
    } finally {
      closing.close();
      staying.close();
    }
    assertEquals(List.of(), threadsLeft(before));
  }

  /** Seekwell's threads started since {@code before} still alive after 10 s, by name. */
  private static List<String> threadsLeft(Set<Thread> before) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (!before.contains(thread) && thread.getName().startsWith("seekwell-")) {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    }
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> !before.contains(thread) && thread.getName().startsWith("seekwell-"))
        .map(Thread::getName)
        .sorted()
        .toList();
  }
}
