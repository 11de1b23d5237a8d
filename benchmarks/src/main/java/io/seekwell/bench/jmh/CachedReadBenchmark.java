package io.seekwell.bench.jmh;

import io.seekwell.InputPolicy;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.bench.workloads.SampleTable;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hot path: reads of bytes already cached, per call, on a stream with no read strategy ({@code
 * raw}: 8 MiB read as {@code RANDOM}) and on one the Parquet plug-in serves ({@code parquet}: about
 * 16 MB of 20 columns, read in its column chunks, outside the footer's tail). Run with {@code
 * ./scripts/jmh.sh CachedReadBenchmark -prof gc} for allocation per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class CachedReadBenchmark {

  /** Which stream: {@code raw} or {@code parquet}. */
  @Param({"raw", "parquet"})
  public String object;

  private S3SeekableInputStreamFactory factory;
  private S3SeekableInputStream stream;
  private long start;
  private long end;
  private final byte[] buffer = new byte[8 * 1024];

  @Setup(Level.Trial)
  public void open() throws IOException {
    boolean parquet = object.equals("parquet");
    S3URI uri = S3URI.of("bucket", parquet ? "cached.parquet" : "cached.bin");
    byte[] content = parquet ? parquetFile() : TestData.randomBytes(1, 8 * 1024 * 1024);
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of(uri.bucket(), uri.key()), content);
    factory = new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    InputPolicy policy = parquet ? InputPolicy.DEFAULT : InputPolicy.RANDOM;
    stream = factory.createStream(uri, OpenStreamInformation.builder().inputPolicy(policy).build());
    stream.readFully(0, new byte[content.length], 0, content.length);
    // In a Parquet file: after the leading magic, in the first half (column chunks only).
    start = parquet ? 4 : 0;
    end = parquet ? content.length / 2 : content.length;
    stream.seek(start);
  }

  /** 100,000 rows of 20 columns: about 16 MB in row groups of about 4 MB. */
  private static byte[] parquetFile() throws IOException {
    Path file = Files.createTempFile("seekwell-jmh", ".parquet");
    Files.delete(file);
    try {
      return Files.readAllBytes(SampleTable.write(file, 100_000, 4 << 20, 7));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    stream.close();
    factory.close();
  }

  /** One cached {@code read(byte[8 KiB])}. */
  @Benchmark
  public int read8KiB() throws IOException {
    if (stream.getPos() + buffer.length > end) {
      stream.seek(start);
    }
    return stream.read(buffer, 0, buffer.length);
  }

  /** One cached single-byte {@code read()}. */
  @Benchmark
  public int readByte() throws IOException {
    if (stream.getPos() == end) {
      stream.seek(start);
    }
    return stream.read();
  }
}
