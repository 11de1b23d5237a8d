package io.seekwell.bench.jmh;

import io.seekwell.InputPolicy;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
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
 * The hot path: reads of bytes already cached, per call. Run with {@code ./scripts/jmh.sh} (add
 * {@code -prof gc} for allocation per operation).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class CachedReadBenchmark {

  private static final int LENGTH = 8 * 1024 * 1024;
  private static final S3URI URI = S3URI.of("bucket", "cached.bin");

  private S3SeekableInputStreamFactory factory;
  private S3SeekableInputStream stream;
  private final byte[] buffer = new byte[8 * 1024];

  @Setup(Level.Trial)
  public void open() throws IOException {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of(URI.bucket(), URI.key()), TestData.randomBytes(1, LENGTH));
    factory = new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    stream =
        factory.createStream(
            URI, OpenStreamInformation.builder().inputPolicy(InputPolicy.RANDOM).build());
    byte[] all = new byte[LENGTH];
    stream.readFully(0, all, 0, LENGTH);
  }

  @TearDown(Level.Trial)
  public void close() {
    stream.close();
    factory.close();
  }

  /** One cached {@code read(byte[8 KiB])}. */
  @Benchmark
  public int read8KiB() throws IOException {
    if (stream.getPos() + buffer.length > LENGTH) {
      stream.seek(0);
    }
    return stream.read(buffer, 0, buffer.length);
  }

  /** One cached single-byte {@code read()}. */
  @Benchmark
  public int readByte() throws IOException {
    if (stream.getPos() == LENGTH) {
      stream.seek(0);
    }
    return stream.read();
  }
}
