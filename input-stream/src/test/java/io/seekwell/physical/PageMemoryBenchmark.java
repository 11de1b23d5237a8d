package io.seekwell.physical;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
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

/**
 * Why block pages are heap arrays and not direct memory, measured: 64 MiB of a GET body (an {@link
 * InputStream}, as the SDK's clients give it) pass into pages of {@link PagePool#PAGE} bytes, then
 * out of them into a reader's {@code byte[]} in 64 KiB reads, once through heap pages and once
 * through direct ones. A direct page has no array to read the body into or to copy to the caller
 * from, so its bytes take a heap buffer on the way in ({@code InputStream} reads only into arrays);
 * on the way out a direct buffer copies into the array as a heap one does. Both sets of pages are
 * made once, as the pool keeps them, so the collector's cost is not what differs.
 *
 * <p>In this module's tests beside the pool; no build runs it. {@code ./scripts/jmh.sh
 * PageMemoryBenchmark} runs it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class PageMemoryBenchmark {

  private static final int LENGTH = 64 << 20;
  private static final int READ = 64 << 10;

  private final byte[] body = new byte[LENGTH];
  private final byte[][] heapPages = new byte[LENGTH / PagePool.PAGE][];
  private final ByteBuffer[] directPages = new ByteBuffer[LENGTH / PagePool.PAGE];
  private final byte[] scratch = new byte[PagePool.PAGE];
  private final byte[] caller = new byte[READ];

  @Setup
  public void makePages() {
    new SplittableRandom(3).nextBytes(body);
    for (int i = 0; i < heapPages.length; i++) {
      heapPages[i] = new byte[PagePool.PAGE];
      directPages[i] = ByteBuffer.allocateDirect(PagePool.PAGE);
    }
  }

  /** The body into heap pages, then out to the caller: one copy each way. */
  @Benchmark
  public long heapPages() throws IOException {
    InputStream in = new ByteArrayInputStream(body);
    for (byte[] page : heapPages) {
      in.readNBytes(page, 0, page.length);
    }
    long sum = 0;
    for (int offset = 0; offset < LENGTH; offset += READ) {
      byte[] page = heapPages[offset / PagePool.PAGE];
      System.arraycopy(page, offset % PagePool.PAGE, caller, 0, READ);
      sum += caller[READ - 1];
    }
    return sum;
  }

  /** The body into direct pages through a heap buffer, then out to the caller. */
  @Benchmark
  public long directPages() throws IOException {
    InputStream in = new ByteArrayInputStream(body);
    for (ByteBuffer page : directPages) {
      in.readNBytes(scratch, 0, scratch.length);
      page.clear();
      page.put(scratch);
    }
    long sum = 0;
    for (int offset = 0; offset < LENGTH; offset += READ) {
      ByteBuffer page = directPages[offset / PagePool.PAGE];
      page.get(offset % PagePool.PAGE, caller, 0, READ);
      sum += caller[READ - 1];
    }
    return sum;
  }
}
