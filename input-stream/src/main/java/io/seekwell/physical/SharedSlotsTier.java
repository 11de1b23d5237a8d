package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slots of the disk tier's directory that other JVMs of the host (or other scopes of this one)
 * hold, read only: a block of an immutable object that this factory's own slot cannot complete
 * takes, before its GET, the leading bytes another slot holds of it, so that what the driver
 * fetched while planning a query is read from disk by the executors of its host. It never writes,
 * deletes or locks there: each slot's holder alone writes and evicts it and keeps it within its
 * share of the bound, so the directory as a whole stays within {@code max.size}. What a GET brings
 * after such a fill goes to this factory's own slot as usual.
 *
 * <p>Every granule it serves was listed in the other slot's index when the fill read it and matches
 * its checksum, so a holder writing, evicting or writing an object again meanwhile costs at most a
 * GET, never a wrong byte; an object version's files are named by its identity (location, length,
 * ETag, SSE-C key MD5), so a stream only finds what its own request could have fetched. A slot it
 * cannot read (another user's, say) is passed over. Stateless apart from its settings: thread-safe.
 */
final class SharedSlotsTier implements Tier {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final List<Path> slots;
  private final Metrics metrics;

  private SharedSlotsTier(List<Path> slots, Metrics metrics) {
    this.slots = slots;
    this.metrics = metrics;
  }

  /**
   * The other slots of the directory {@code configuration} names, all but {@code own} (the slot
   * this factory's disk tier holds, if it holds one); none if the disk cache is off.
   */
  static Optional<Tier> open(
      DiskCacheConfiguration configuration, Optional<Path> own, Metrics metrics) {
    if (!configuration.isEnabled()) {
      return Optional.empty();
    }
    Path home = configuration.directory().orElseThrow();
    Optional<Path> ownName = own.map(Path::getFileName);
    List<Path> others = new ArrayList<>();
    for (int n = 0; n < configuration.maxSlots(); n++) {
      Path slot = home.resolve(DiskCache.SLOT_PREFIX + n);
      if (!ownName.equals(Optional.of(slot.getFileName()))) {
        others.add(slot);
      }
    }
    return others.isEmpty() ? Optional.empty() : Optional.of(new SharedSlotsTier(others, metrics));
  }

  @Override
  public int fill(Block block, FetchContext context) {
    if (!context.immutable()) {
      return 0;
    }
    ObjectKey key = block.key().owner().key();
    String identity = DiskDirectory.identity(key);
    String name = DiskDirectory.nameOf(identity);
    for (Path slot : slots) {
      int filled = fillFrom(slot, name, identity, block, context);
      if (filled > 0) {
        return filled;
      }
    }
    return 0;
  }

  private int fillFrom(Path slot, String name, String identity, Block block, FetchContext context) {
    ObjectKey key = block.key().owner().key();
    try {
      Optional<SharedCopy> found = SharedCopy.open(slot, name, identity, key.length());
      if (found.isEmpty()) {
        return 0;
      }
      try (SharedCopy copy = found.get()) {
        return block.fillInPlace(
            new GranuleFiller(
                copy,
                block.range().start(),
                GranuleFiller.Counts.SHARED,
                metrics,
                context.options().streamMetrics(),
                () ->
                    LOG.debug(
                        "Disk cache: a granule of {} in {} did not match its checksum (its holder"
                            + " may be writing it again); the GET serves it",
                        key.location(),
                        slot)));
      }
    } catch (ClosedChannelException e) {
      LOG.debug("Disk cache: {} left {} while read; the GET serves it", key.location(), slot);
      return 0;
    } catch (IOException e) {
      LOG.debug("Disk cache: {} in {} cannot be read: {}", key.location(), slot, e.toString());
      return 0;
    }
  }

  /** It holds nothing of its own: the slots' holders write them. */
  @Override
  public void take(Block block, FetchContext context) {}
}
