package io.seekwell.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.InputPolicy;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.s3a.S3AInputPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeekwellStreamFactoryTest {

  @TempDir Path directory;

  @Test
  void theFactoriesOfOneJvmShareOneSlotOfTheDiskCacheDirectory() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.seekwell.physicalio.disk.cache.dir", directory.toString());
    SeekwellStreamFactory first = new SeekwellStreamFactory();
    SeekwellStreamFactory second = new SeekwellStreamFactory();
    first.init(conf);
    try {
      second.init(conf);
      try {
        assertEquals(List.of("slot-0"), slots(), "one slot for both file systems' factories");
      } finally {
        second.stop();
      }
    } finally {
      first.stop();
    }
    try (FileChannel channel =
            FileChannel.open(
                directory.resolve("slot-0").resolve(".lock"), StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock()) {
      assertNotNull(lock, "the last factory to stop freed the slot");
    }
  }

  private List<String> slots() throws IOException {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.map(entry -> entry.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void s3aPoliciesMapToSeekwellPolicies() {
    assertEquals(InputPolicy.SEQUENTIAL, SeekwellStreamFactory.policy(S3AInputPolicy.Sequential));
    // S3A folds parquet, orc, columnar and vector into random: Seekwell then decides by name.
    assertEquals(InputPolicy.DEFAULT, SeekwellStreamFactory.policy(S3AInputPolicy.Random));
    assertEquals(InputPolicy.DEFAULT, SeekwellStreamFactory.policy(S3AInputPolicy.Normal));
  }

  @Test
  void aBadSeekwellSettingFailsInitWithTheFullKey() {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.seekwell.physicalio.readaheadbytes", "fast");
    SeekwellStreamFactory factory = new SeekwellStreamFactory();
    Exception error = assertThrows(Exception.class, () -> factory.init(conf));
    Throwable cause = error;
    while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
      cause = cause.getCause();
    }
    assertTrue(
        cause.getMessage().contains("fs.s3a.seekwell.physicalio.readaheadbytes"),
        cause.getMessage());
  }
}
