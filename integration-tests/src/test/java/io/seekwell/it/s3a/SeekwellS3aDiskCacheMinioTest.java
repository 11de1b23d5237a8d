package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.TestData;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk tier under the S3A connector, against MinIO: objects under an immutable prefix are read
 * by a later file system from disk, with no GET and the stream's statistics saying so; objects
 * elsewhere are fetched again, and so is every object when the directory cannot be used.
 */
class SeekwellS3aDiskCacheMinioTest {

  private static final byte[] CONTENT = TestData.randomBytes(61, 3_000_000);

  @TempDir java.nio.file.Path directory;

  private Configuration conf() {
    return conf(directory);
  }

  private Configuration conf(java.nio.file.Path cacheDirectory) {
    Configuration conf = SeekwellS3aSetup.configure(new Configuration());
    conf.set("fs.s3a.seekwell.physicalio.disk.cache.dir", cacheDirectory.toString());
    conf.set(
        "fs.s3a.seekwell.physicalio.disk.cache.immutable.prefixes",
        "s3://" + SeekwellS3aSetup.BUCKET + "/immutable/");
    return conf;
  }

  /** Reads the file whole through a new file system; returns its stream's counters. */
  private Map<String, Long> readWhole(Path path) throws Exception {
    return readWhole(path, conf());
  }

  /** Reads the file whole through a new file system of {@code conf}; returns its counters. */
  private Map<String, Long> readWhole(Path path, Configuration conf) throws Exception {
    try (FileSystem fs = FileSystem.newInstance(path.toUri(), conf)) {
      if (!fs.exists(path)) {
        try (FSDataOutputStream out = fs.create(path)) {
          out.write(CONTENT);
        }
      }
      try (FSDataInputStream in = fs.open(path)) {
        byte[] bytes = new byte[CONTENT.length];
        in.readFully(0, bytes);
        assertArrayEquals(CONTENT, bytes);
        return in.getIOStatistics().counters();
      }
    }
  }

  @Test
  void objectsUnderAnImmutablePrefixAreReadFromDiskByALaterFileSystem() throws Exception {
    Path path = new Path("s3a://" + SeekwellS3aSetup.BUCKET + "/immutable/data.bin");
    Map<String, Long> cold = readWhole(path);
    assertTrue(cold.get("stream_read_opened") > 0, cold::toString);
    assertEquals(0L, cold.get("seekwell_disk_bytes_read"), cold::toString);

    Map<String, Long> warm = readWhole(path);
    assertEquals(0L, warm.get("stream_read_opened"), "GETs from a warm disk: " + warm);
    assertEquals((long) CONTENT.length, warm.get("seekwell_disk_bytes_read"), warm::toString);
    assertEquals(0L, warm.get("seekwell_disk_misses"), warm::toString);
  }

  @Test
  void aDirectoryThatCannotBeCreatedLeavesTheFileSystemReadingFromS3() throws Exception {
    Path path = new Path("s3a://" + SeekwellS3aSetup.BUCKET + "/immutable/unusable.bin");
    java.nio.file.Path file = Files.write(directory.resolve("file"), new byte[] {1});
    Configuration conf = conf(file.resolve("cache"));
    readWhole(path, conf);
    Map<String, Long> again = readWhole(path, conf);
    assertTrue(again.get("stream_read_opened") > 0, again::toString);
    assertEquals(0L, again.get("seekwell_disk_bytes_read"), again::toString);
    assertEquals(0L, again.get("seekwell_disk_misses"), "the tier was not asked: " + again);
  }

  @Test
  void objectsElsewhereAreFetchedAgain() throws Exception {
    Path path = new Path("s3a://" + SeekwellS3aSetup.BUCKET + "/mutable/data.bin");
    readWhole(path);
    Map<String, Long> again = readWhole(path);
    assertTrue(again.get("stream_read_opened") > 0, again::toString);
    assertEquals(0L, again.get("seekwell_disk_bytes_read"), again::toString);
  }
}
