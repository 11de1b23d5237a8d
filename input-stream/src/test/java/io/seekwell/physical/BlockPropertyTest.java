package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.ByteRange;
import io.seekwell.testing.TestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Whatever sizes the body hands its bytes over in, every copy out of a block, into arrays or
 * buffers, at any offset and length, gives the object's bytes, never those a reused array held.
 */
class BlockPropertyTest {

  private static final long START = 5_000_000;

  /** A body that hands over at most {@code most} bytes per read. */
  private static InputStream trickling(byte[] content, int most) {
    return new ByteArrayInputStream(content) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, most));
      }
    };
  }

  @Property(tries = 200)
  void copiesGiveTheBodysBytes(
      @ForAll @IntRange(min = 1, max = 1_300_000) int size,
      @ForAll @IntRange(min = 1, max = 300_000) int mostPerRead,
      @ForAll @IntRange(min = 0, max = 1_299_999) int offset,
      @ForAll @IntRange(min = 1, max = 600_000) int length,
      @ForAll long seed)
      throws IOException {
    byte[] content = TestData.randomBytes(seed, size);
    // The pages are reused ones, holding an earlier block's bytes.
    MemoryBudget budget = new MemoryBudget(size, new PagePool(new SharedBudget(size)));
    byte[][] earlier = budget.tryAllocate(size, 0);
    for (byte[] page : earlier) {
      Arrays.fill(page, (byte) 0x5A);
    }
    budget.free(earlier, size);
    Block block =
        new Block(
            new BlockKey(null, START),
            ByteRange.ofLength(START, size),
            budget.tryAllocate(size, 0),
            budget,
            FetchPurpose.DEMAND);
    assertEquals(0, block.availableFrom(START));
    block.fillFrom(trickling(content, mostPerRead));

    int from = offset % size;
    int n = Math.min(length, size - from);
    byte[] copied = new byte[n + 3];
    int done = 0;
    while (done < n) {
      done += block.copy(START + from + done, copied, 3 + done, n - done, 1_000_000_000L);
    }
    assertArrayEquals(
        Arrays.copyOfRange(content, from, from + n), Arrays.copyOfRange(copied, 3, 3 + n));

    ByteBuffer buffer = ByteBuffer.allocate(n + 7);
    block.copyArrived(START + from, buffer, 7, n);
    assertEquals(0, buffer.position());
    byte[] fromBuffer = new byte[n];
    buffer.get(7, fromBuffer);
    assertArrayEquals(Arrays.copyOfRange(content, from, from + n), fromBuffer);

    ByteBuffer slices = ByteBuffer.allocate(n);
    block.arrived(START + from, n).forEach(slices::put);
    assertArrayEquals(Arrays.copyOfRange(content, from, from + n), slices.array());
    assertEquals(size, block.heldBytes());
  }
}
