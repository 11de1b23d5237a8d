package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk cache in one claimed slot of a configured directory, which every factory of one {@link
 * DiskCaches} scope that names the directory uses (through its own {@link DiskTier}): the objects
 * it holds, its reader, writer, eviction and breaker. Opened by {@link DiskCaches}, which counts
 * its users and closes it when the last one leaves. Thread-safe as its parts are; it adds no state
 * of its own beyond them.
 */
final class DiskCache {

  /** The name of slot {@code n} in the configured directory is this prefix and {@code n}. */
  static final String SLOT_PREFIX = "slot-";

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);

  private final Path home;
  private final DiskDirectory slot;
  private final DiskObjects objects;
  private final DiskReader reader;
  private final DiskWriter writer;
  private final long maxBytes;

  private DiskCache(
      Path home, DiskDirectory slot, long maxBytes, long maxQueuedBytes, LongSupplier nanos)
      throws IOException {
    this.home = home;
    this.slot = slot;
    this.maxBytes = maxBytes;
    this.objects = new DiskObjects(slot, slot.recover());
    DiskBreaker breaker = new DiskBreaker(slot.path(), nanos);
    this.reader = new DiskReader(objects, breaker);
    DiskEviction eviction = new DiskEviction(objects, reader, breaker, maxBytes);
    this.writer = new DiskWriter(slot, objects, eviction, breaker, maxQueuedBytes);
  }

  /**
   * Opens the cache in the lowest-numbered free slot of {@code home}, of the first {@code slots}:
   * claims it, probes it and lists what an earlier run left there; on failure, releases it. A slot
   * another process or another scope of this one holds is passed over. The cache keeps within
   * {@code maxBytes}, and at most {@code maxQueuedBytes} of blocks wait to be written at once.
   * Files directly in {@code home} (an earlier version's, outside any slot) are left alone.
   *
   * @throws DiskUnavailableException if every slot is taken, or the first free one cannot be used
   */
  static DiskCache open(
      Path home,
      int slots,
      long maxBytes,
      long maxQueuedBytes,
      LongSupplier nanos,
      UsableSpace space)
      throws DiskUnavailableException {
    for (int n = 0; n < slots; n++) {
      Optional<DiskDirectory> claimed = DiskDirectory.open(home.resolve(SLOT_PREFIX + n), space);
      if (claimed.isPresent()) {
        LOG.debug(
            "Disk cache in {}: this scope uses {}{}, {} lower taken", home, SLOT_PREFIX, n, n);
        return open(home, claimed.get(), maxBytes, maxQueuedBytes, nanos);
      }
    }
    throw new DiskUnavailableException(
        "all "
            + slots
            + " of its slots are taken by other processes or scopes ('"
            + DiskCacheConfiguration.PREFIX
            + "max.slots')");
  }

  private static DiskCache open(
      Path home, DiskDirectory slot, long maxBytes, long maxQueuedBytes, LongSupplier nanos)
      throws DiskUnavailableException {
    try {
      return new DiskCache(home, slot, maxBytes, maxQueuedBytes, nanos);
    } catch (IOException | UncheckedIOException e) {
      // Claimed and probed: only the listing (recovery) can fail here.
      slot.release();
      throw new DiskUnavailableException("it cannot be listed (" + e + ")", e);
    } catch (RuntimeException e) {
      slot.release();
      throw e;
    }
  }

  long maxBytes() {
    return maxBytes;
  }

  /** The configured directory whose slot this cache is in. */
  Path home() {
    return home;
  }

  DiskReader reader() {
    return reader;
  }

  DiskWriter writer() {
    return writer;
  }

  /**
   * Lets the writer finish (see {@link DiskWriter#close}), unmaps every file and releases the slot.
   */
  void close() {
    writer.close();
    objects.all().forEach(DiskObject::unmap);
    slot.release();
  }
}
