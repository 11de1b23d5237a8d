package io.seekwell.physical.disk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.seekwell.DiskCacheConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.physical.Block;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectKey;
import io.seekwell.physical.Tier;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.UserPrincipal;
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
 * <p>Every granule it serves was listed in the other slot's index and matches its checksum, so a
 * holder writing, evicting or writing an object again meanwhile costs at most a GET, never a wrong
 * byte; an object version's files are named by its identity (location, length, ETag, SSE-C key
 * MD5), so a stream only finds what its own request could have fetched. Only regular files of this
 * process's user are read, never through a link: a slot another user can write is never trusted. A
 * slot it cannot read is passed over.
 *
 * <p><b>Design notes.</b> {@code indexes} is a bounded Caffeine cache (thread-safe) of the other
 * slots' indexes read so far, so that a fill reads only what an index gained since (see {@link
 * SharedIndex}, which has its own notes); each fill has a {@link SharedCopy} of its own. Fills run
 * on fetch threads, any number at once.
 */
public final class SharedSlotsTier implements Tier {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  /** The most other slots' indexes kept read. */
  private static final int INDEXES = 256;

  private final List<Path> slots;
  private final UserPrincipal user;
  private final Metrics metrics;
  private final Cache<Path, SharedIndex> indexes =
      Caffeine.newBuilder().maximumSize(INDEXES).executor(Runnable::run).build();

  private SharedSlotsTier(List<Path> slots, UserPrincipal user, Metrics metrics) {
    this.slots = slots;
    this.user = user;
    this.metrics = metrics;
  }

  /**
   * The other slots of the directory {@code configuration} names, all but {@code own} (the slot
   * this factory's disk tier holds, if it holds one); none if the disk cache is off, or if this
   * process's user cannot be told (then no other slot can be trusted).
   */
  public static Optional<Tier> open(
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
    if (others.isEmpty()) {
      return Optional.empty();
    }
    try {
      UserPrincipal user =
          own.isPresent()
              ? Files.getOwner(own.get(), LinkOption.NOFOLLOW_LINKS)
              : FileSystems.getDefault()
                  .getUserPrincipalLookupService()
                  .lookupPrincipalByName(System.getProperty("user.name"));
      return Optional.of(new SharedSlotsTier(List.copyOf(others), user, metrics));
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug(
          "Disk cache in {}: this process's user is unknown ({}), so other slots are not read",
          home,
          e.toString());
      return Optional.empty();
    }
  }

  @Override
  public int fill(Block block, FetchContext context) {
    if (!context.immutable()) {
      return 0;
    }
    ObjectKey key = block.key().owner().key();
    String identity = DiskDirectory.identity(key);
    String name = DiskDirectory.nameOf(identity);
    int filled = 0;
    for (int i = 0; i < slots.size() && !block.isComplete(); i++) {
      filled += fillFrom(slots.get(i), name, identity, block, context);
    }
    return filled;
  }

  private int fillFrom(Path slot, String name, String identity, Block block, FetchContext context) {
    ObjectKey key = block.key().owner().key();
    int before = block.filled();
    try {
      Optional<GranuleIndex> index = indexIn(slot, name, identity, key.length());
      if (index.isEmpty()) {
        return 0;
      }
      try (SharedCopy copy =
          new SharedCopy(DiskDirectory.dataFile(slot, name), index.get(), user)) {
        block.fillInPlace(
            new GranuleFiller(
                copy,
                block.range(),
                GranuleFiller.Counts.SHARED,
                metrics,
                context.options().streamMetrics(),
                () ->
                    LOG.debug(
                        "Disk cache: a granule of {} in {} did not match its checksum (its"
                            + " holder may be writing it again); the GET serves it",
                        key.location(),
                        slot)));
      }
    } catch (ClosedChannelException e) {
      LOG.debug("Disk cache: {} left {} while read; the GET serves it", key.location(), slot);
    } catch (IOException e) {
      LOG.debug("Disk cache: {} in {} cannot be read: {}", key.location(), slot, e.toString());
    }
    int filled = block.filled() - before;
    if (filled > 0) {
      LOG.debug(
          "Disk cache: {} {}: {} bytes from {}, which another JVM or scope holds",
          key.location(),
          block.range(),
          filled,
          slot);
    }
    return filled;
  }

  /** What {@code slot}'s index of the object lists now; none if it has no such index of ours. */
  private Optional<GranuleIndex> indexIn(Path slot, String name, String identity, long length)
      throws IOException {
    Path file = DiskDirectory.indexFile(slot, name);
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    if (!SharedCopy.isOwnRegularFile(file, attributes, user)) {
      return Optional.empty();
    }
    return indexes.get(file, unused -> new SharedIndex(identity, length)).refresh(file, attributes);
  }

  /** It holds nothing of its own: the slots' holders write them. */
  @Override
  public void take(Block block, FetchContext context) {}
}
