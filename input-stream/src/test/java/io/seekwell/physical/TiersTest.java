package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A tier added below memory is one more {@link Tier}: what it holds fills a new block before any
 * GET, and it is offered only blocks whose bytes came from below it.
 */
class TiersTest {

  private static final int LENGTH = 256 * 1024;
  private static final ObjectLocation LOCATION = ObjectLocation.of("bucket", "object");
  private static final FetchContext CONTEXT = Contexts.IMMUTABLE;

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final byte[] content = TestData.randomBytes(3, LENGTH);
  private final String etag = store.put(LOCATION, content);
  private final Metrics metrics = new Metrics();
  private final MemoryTier memory =
      new MemoryTier(
          16L << 20,
          1L << 20,
          new PagePool(new SharedBudget(16L << 20)),
          4L << 20,
          metrics,
          block -> {});
  private final Fetcher fetcher =
      new Fetcher(
          store,
          new AnyVersion(),
          2,
          TimeUnit.SECONDS.toNanos(10),
          new LinkStats(LENGTH, LENGTH),
          metrics,
          Ticker.system());
  private final ObjectBlocks owner =
      new ObjectBlocks(
          new ObjectKey(ScopedLocation.of(LOCATION, RequestOptions.none()), etag, LENGTH));

  /** Every response is of the version asked for: the store here holds one. */
  private static final class AnyVersion implements Fetcher.Versions {
    @Override
    public void check(ObjectBlocks blocks, ObjectContent content) {}

    @Override
    public void changed(ObjectBlocks blocks) {}
  }

  /** A tier that holds the first bytes of the object, and remembers the blocks it was offered. */
  private final class PrefixTier implements Tier {
    private final int held;
    private final List<Block> taken = new CopyOnWriteArrayList<>();

    PrefixTier(int held) {
      this.held = held;
    }

    @Override
    public int fill(Block block, FetchContext context) {
      try {
        return block.fillInPlace(
            (at, array, offset, length) -> {
              int n = Math.max(0, Math.min(length, held - at));
              System.arraycopy(content, at, array, offset, n);
              return n;
            });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void take(Block block, FetchContext context) {
      taken.add(block);
    }
  }

  @AfterEach
  void close() {
    fetcher.close();
  }

  /** Fills a new block of the whole object through {@code tiers}; returns its bytes. */
  private byte[] fillWhole(Tiers tiers) throws Exception {
    Block block = memory.admit(owner, ByteRange.of(0, LENGTH - 1), FetchPurpose.DEMAND);
    owner.add(block);
    memory.add(block);
    tiers.fill(block, CONTEXT);
    block.whenFilled(LENGTH).get(10, TimeUnit.SECONDS);
    fetcher.close(); // waits for the fetch thread, which offers the block after filling it
    ByteBuffer bytes = ByteBuffer.allocate(LENGTH);
    block.arrived(0, LENGTH).forEach(bytes::put);
    return bytes.array();
  }

  @Test
  void aBlockTheTierHoldsWholeNeedsNoGetAndIsNotOfferedBack() throws Exception {
    PrefixTier peer = new PrefixTier(LENGTH);
    assertArrayEquals(content, fillWhole(new Tiers(memory, List.of(peer), fetcher)));
    assertEquals(List.of(), store.gets());
    assertEquals(List.of(), peer.taken);
  }

  @Test
  void theTierFillsWhatItHoldsAndTheGetAsksForTheRestOnly() throws Exception {
    PrefixTier peer = new PrefixTier(LENGTH / 4);
    assertArrayEquals(content, fillWhole(new Tiers(memory, List.of(peer), fetcher)));
    assertEquals(
        List.of(ByteRange.of(LENGTH / 4, LENGTH - 1)),
        store.gets().stream().map(GetRequest::range).toList());
    assertEquals(1, peer.taken.size(), "a block a GET completed goes to every tier");
  }
}
