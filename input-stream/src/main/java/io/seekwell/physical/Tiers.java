package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tiers of a block store, in order (the {@link MemoryTier} first, then the tiers below it), and
 * how a new block is filled through them: on a fetch thread, each tier in order fills what it holds
 * from the block's first missing byte; a GET brings the rest; then the block is offered to every
 * tier above the lowest source of its bytes, from the lowest up (a block a GET completed goes to
 * every tier; one the factory's own disk slot completed, to memory only; one another slot
 * completed, to memory and the factory's own slot). Holds no mutable state: what the fill changes
 * is the block's (see {@link Block}) and the tiers' own.
 */
final class Tiers {

  private static final Logger LOG = LoggerFactory.getLogger(Tiers.class);

  private final MemoryTier memory;
  private final List<Tier> tiers;
  private final Fetcher fetcher;

  /** The tiers {@code memory}, then {@code lower} in order, over the GETs of {@code fetcher}. */
  Tiers(MemoryTier memory, List<Tier> lower, Fetcher fetcher) {
    this.memory = memory;
    List<Tier> all = new ArrayList<>();
    all.add(memory);
    all.addAll(lower);
    this.tiers = List.copyOf(all);
    this.fetcher = fetcher;
  }

  /**
   * Fills {@code block} (new, pinned once for this fill, in the memory tier) on a fetch thread,
   * then unpins it. If the store is closed, the block fails and leaves the memory tier.
   */
  void fill(Block block, FetchContext context) {
    try {
      fetcher.execute(() -> receive(block, context));
    } catch (RejectedExecutionException e) {
      block.fail(new IOException("The stream factory is closed", e));
      memory.drop(block);
      block.unpin();
    }
  }

  private void receive(Block block, FetchContext context) {
    ObjectBlocks blocks = block.key().owner();
    try {
      int lowestSource = -1;
      for (int tier = 0; tier < tiers.size() && !block.isComplete(); tier++) {
        if (tiers.get(tier).fill(block, context) > 0) {
          lowestSource = tier;
        }
      }
      if (!block.isComplete()) {
        if (!block.isPrefetched()) {
          fetcher.countDemandGet();
        }
        ByteRange rest = block.range().suffixFrom(block.range().start() + block.filled());
        FetchContext sent = block.isPrefetched() ? context.asPrefetch() : context;
        try {
          fetcher.get(blocks, rest, sent, block::fillFrom);
        } catch (IOException e) {
          // Once every byte is in (of the version checked before the first), what fails after it
          // (the factory closing while the exchange ends) costs the block nothing.
          if (!block.isComplete()) {
            throw e;
          }
          LOG.debug(
              "GET {} {} failed once every byte was in; the block keeps them: {}",
              blocks.key().location(),
              rest,
              e.toString());
        }
        lowestSource = tiers.size();
      }
      for (int tier = lowestSource - 1; tier >= 0; tier--) {
        tiers.get(tier).take(block, context);
      }
    } catch (IOException e) {
      // Forget first, so that whoever sees the failure also finds the object forgotten.
      memory.drop(block);
      block.fail(e);
    } catch (RuntimeException | Error e) {
      // Errors too go to the readers, not to the fetch thread's uncaught handler.
      memory.drop(block);
      block.fail(
          new IOException("GET " + blocks.key().location() + " " + block.range() + " failed", e));
    } finally {
      block.unpin();
    }
  }
}
