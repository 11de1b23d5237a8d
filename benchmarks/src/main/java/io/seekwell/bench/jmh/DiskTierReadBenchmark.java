package io.seekwell.bench.jmh;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.bench.Directories;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What reading an 8 MiB immutable object costs from each tier: the memory tier ({@code memory}),
 * the disk tier with the memory tier dropped ({@code disk}: the file read, the checksum and the
 * copy to the reader), and, for comparison, a plain positional read of the same bytes from a file
 * ({@code file}), and the CRC32C over them that the tier checks every granule with ({@code
 * checksum}). The disk tier's target: no more than {@code memory} plus {@code file}. Run with
 * {@code ./scripts/jmh.sh DiskTierReadBenchmark -prof "perfnorm:events=task-clock"} to see CPU
 * (milliseconds of all threads per read) besides the reader's time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DiskTierReadBenchmark {

  private static final int LENGTH = 8 * 1024 * 1024;
  private static final S3URI URI = S3URI.of("bucket", "tables/t/metadata/snap-1.avro");

  private Path directory;
  private Path plainFile;
  private S3SeekableInputStreamFactory factory;
  private OpenStreamInformation open;
  private final byte[] buffer = new byte[LENGTH];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("seekwell-jmh-disk");
    plainFile = directory.resolve("plain.bin");
    byte[] content = TestData.randomBytes(3, LENGTH);
    Files.write(plainFile, content);
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    String etag = store.put(ObjectLocation.of(URI.bucket(), URI.key()), content);
    factory = factoryOnTheTier(store);
    open =
        OpenStreamInformation.builder()
            .objectMetadata(ObjectMetadata.of(LENGTH, etag))
            .immutable(true)
            .build();
    readWhole();
    // A second factory would find it on disk; this one drops its memory tier before each read.
    factory.close();
    factory = factoryOnTheTier(store);
  }

  private S3SeekableInputStreamFactory factoryOnTheTier(InMemoryObjectClient store) {
    return new S3SeekableInputStreamFactory(
        store,
        S3SeekableInputStreamConfiguration.builder()
            .diskCache(DiskCacheConfiguration.in(directory.resolve("tier"), 1L << 30, 1))
            .build());
  }

  private long readWhole() throws IOException {
    try (S3SeekableInputStream stream = factory.createStream(URI, open)) {
      stream.readFully(0, buffer, 0, LENGTH);
    }
    return buffer[LENGTH - 1];
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    long gets = factory.getMetrics().get(Metric.GET_REQUESTS);
    factory.close();
    Directories.delete(directory);
    if (gets != 0) {
      throw new IllegalStateException("The disk tier sent " + gets + " GETs");
    }
  }

  /** 8 MiB cached in memory, copied to the reader. */
  @Benchmark
  public long memory() throws IOException {
    return readWhole();
  }

  /** 8 MiB from the disk tier: memory dropped first, so every block is filled from disk. */
  @Benchmark
  public long disk() throws IOException {
    factory.invalidate(URI);
    return readWhole();
  }

  /** 8 MiB read from a plain file with positional reads: the file read alone. */
  @Benchmark
  public long file() throws IOException {
    try (FileChannel channel = FileChannel.open(plainFile, StandardOpenOption.READ)) {
      ByteBuffer target = ByteBuffer.wrap(buffer);
      while (target.hasRemaining()) {
        channel.read(target, target.position());
      }
    }
    return buffer[LENGTH - 1];
  }

  /** The CRC32C of 8 MiB, as the disk tier checks each granule it reads. */
  @Benchmark
  public long checksum() {
    CRC32C crc = new CRC32C();
    crc.update(buffer, 0, LENGTH);
    return crc.getValue();
  }
}
