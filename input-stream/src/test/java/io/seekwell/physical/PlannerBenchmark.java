package io.seekwell.physical;

import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.object.ObjectLocation;
import java.util.List;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
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

/**
 * The request planner on a 1 GiB object with 2,000 cached blocks of 64 KiB at random places:
 * planning a 1-byte miss, and a 64 MiB read that crosses hundreds of blocks and gaps.
 *
 * <p>It is in this module's tests, in the planner's package, because the planner and its blocks are
 * private to that package. Every build compiles it (and JMH's processor generates its harness); no
 * build runs it, as its name is no test's. {@code ./scripts/jmh.sh PlannerBenchmark} runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class PlannerBenchmark {

  private static final long OBJECT_LENGTH = 1L << 30;
  private static final int BLOCK = 64 * 1024;

  private final RequestPlanner planner =
      new RequestPlanner(
          PhysicalIOConfiguration.DEFAULT,
          PhysicalIOConfiguration.DEFAULT::targetRequestSize,
          () -> 0);
  private final NavigableMap<Long, Block> blocks = new ConcurrentSkipListMap<>();
  private long missPosition;

  @Setup
  public void cacheBlocks() {
    ObjectKey key =
        new ObjectKey(
            new ScopedLocation(ObjectLocation.of("bucket", "table.parquet"), ""),
            "e",
            OBJECT_LENGTH);
    MemoryBudget budget =
        new MemoryBudget(Long.MAX_VALUE, new PagePool(new SharedBudget(Long.MAX_VALUE)));
    SplittableRandom random = new SplittableRandom(5);
    while (blocks.size() < 2000) {
      long start = random.nextLong(OBJECT_LENGTH / BLOCK) * BLOCK;
      ByteRange range = ByteRange.ofLength(start, BLOCK);
      blocks.put(
          start,
          new Block(
              new BlockKey(new ObjectBlocks(key), start),
              range,
              budget.tryAllocate((int) range.length(), 0),
              budget,
              FetchPurpose.DEMAND));
    }
    long candidate = 0;
    while (blocks.floorKey(candidate) != null
        && blocks.floorEntry(candidate).getValue().range().contains(candidate)) {
      candidate += BLOCK;
    }
    missPosition = candidate + 100;
  }

  /** A 1-byte read that misses: widen to 64 KiB and find what is missing. */
  @Benchmark
  public List<ByteRange> planOneByteMiss() {
    return planner.missingParts(
        planner.window(missPosition, missPosition, OBJECT_LENGTH, FetchPurpose.DEMAND), blocks);
  }

  /** A 64 MiB read over about 125 cached blocks: every gap one GET, split at 8 MiB. */
  @Benchmark
  public List<ByteRange> plan64MiBRead() {
    long position = 256L << 20;
    return planner.missingParts(
        planner.window(position, position + (64 << 20) - 1, OBJECT_LENGTH, FetchPurpose.SCAN),
        blocks);
  }
}
