package io.seekwell.bench;

import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * Cached reads on a stream that the Parquet plug-in serves, through the column chunks of the file
 * (outside its footer's tail), per call: what the Parquet read strategy adds to the hot path. Run
 * with {@code ./scripts/jmh.sh ParquetStreamReadBenchmark -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class ParquetStreamReadBenchmark {

  private static final S3URI URI = S3URI.of("bucket", "cached.parquet");

  private S3SeekableInputStreamFactory factory;
  private S3SeekableInputStream stream;
  private long dataEnd;
  private final byte[] buffer = new byte[8 * 1024];

  @Setup(Level.Trial)
  public void open() throws IOException {
    Path file = Files.createTempFile("seekwell-jmh", ".parquet");
    Files.delete(file);
    byte[] content;
    try {
      // 100,000 rows of 20 columns: about 16 MB in row groups of about 4 MB.
      content = Files.readAllBytes(SampleTable.write(file, 100_000, 4 << 20, 7));
    } finally {
      Files.deleteIfExists(file);
    }
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of(URI.bucket(), URI.key()), content);
    factory = new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    stream = factory.createStream(URI, OpenStreamInformation.builder().build());
    stream.readFully(0, new byte[content.length], 0, content.length);
    dataEnd = content.length / 2;
    stream.seek(4);
  }

  @TearDown(Level.Trial)
  public void close() {
    stream.close();
    factory.close();
  }

  /** One cached {@code read(byte[8 KiB])} in the column chunks. */
  @Benchmark
  public int read8KiB() throws IOException {
    if (stream.getPos() + buffer.length > dataEnd) {
      stream.seek(4);
    }
    return stream.read(buffer, 0, buffer.length);
  }

  /** One cached single-byte {@code read()} in the column chunks. */
  @Benchmark
  public int readByte() throws IOException {
    if (stream.getPos() == dataEnd) {
      stream.seek(4);
    }
    return stream.read();
  }
}
