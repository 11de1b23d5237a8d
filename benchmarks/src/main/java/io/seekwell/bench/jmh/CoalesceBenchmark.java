package io.seekwell.bench.jmh;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Merging the ranges of one large vectored read: 10,000 sorted ranges with random gaps. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class CoalesceBenchmark {

  private List<ByteRange> ranges;

  @Setup
  public void ranges() {
    SplittableRandom random = new SplittableRandom(3);
    ranges = new ArrayList<>();
    long next = 0;
    for (int i = 0; i < 10_000; i++) {
      long start = next + random.nextLong(4 * 1024 * 1024);
      ranges.add(ByteRange.ofLength(start, 4096));
      next = start + 4096;
    }
  }

  /** Merges with a 1 MiB gap into GETs of at most 8 MiB. */
  @Benchmark
  public List<ByteRange> coalesce10000Ranges() {
    return ByteRanges.coalesce(ranges, 1 << 20);
  }
}
