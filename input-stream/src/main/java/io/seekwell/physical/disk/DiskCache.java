package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
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
  private final DiskCacheConfiguration configuration;

  private DiskCache(
      Path home,
      DiskDirectory slot,
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanos)
      throws IOException {
    this.home = home;
    this.slot = slot;
    this.configuration = configuration;
    this.objects = new DiskObjects(slot, slot.recover());
    DiskBreaker breaker = new DiskBreaker(slot.path(), nanos);
    this.reader = new DiskReader(objects, breaker);
    DiskEviction eviction = new DiskEviction(objects, reader, breaker, configuration.slotSize());
    this.writer = new DiskWriter(slot, objects, eviction, breaker, maxQueuedBytes);
  }

  /**
   * Opens the cache in the lowest-numbered usable slot of {@code home}, of the first {@code
   * configuration.maxSlots()}: claims it, probes it and lists what an earlier run left there; on
   * failure, releases it. A slot another process or another scope of this one holds is passed over,
   * and so is one that cannot be used (another user's, say), for the next. The cache keeps within
   * {@code configuration.slotSize()}, and at most {@code maxQueuedBytes} of blocks wait to be
   * written at once. Files directly in {@code home} (an earlier version's, outside any slot) are
   * left alone.
   *
   * @throws DiskUnavailableException if no slot can be used: all are taken, or the reason the first
   *     one that failed gave
   */
  static DiskCache open(
      Path home,
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanos,
      UsableSpace space,
      Consumer<FileChannel> keepOpen)
      throws DiskUnavailableException {
    int slots = configuration.maxSlots();
    DiskUnavailableException firstFailure = null;
    int firstFailed = -1;
    for (int n = 0; n < slots; n++) {
      try {
        Optional<DiskDirectory> claimed =
            DiskDirectory.open(home.resolve(SLOT_PREFIX + n), space, keepOpen);
        if (claimed.isPresent()) {
          LOG.debug("Disk cache in {}: this scope uses {}{}", home, SLOT_PREFIX, n);
          return open(home, claimed.get(), configuration, maxQueuedBytes, nanos);
        }
      } catch (DiskUnavailableException e) {
        LOG.debug(
            "Disk cache in {}: {}{} is not usable, as {}", home, SLOT_PREFIX, n, e.getMessage());
        if (firstFailure == null) {
          firstFailure = e;
          firstFailed = n;
        }
      }
    }
    if (firstFailure != null) {
      throw new DiskUnavailableException(
          "in "
              + SLOT_PREFIX
              + firstFailed
              + " "
              + firstFailure.getMessage()
              + ", and all "
              + slots
              + " of its slots were tried ('"
              + DiskCacheConfiguration.PREFIX
              + "max.slots'): none could be used",
          firstFailure);
    }
    throw new DiskUnavailableException(
        "all "
            + slots
            + " of its slots are taken by other processes or scopes ('"
            + DiskCacheConfiguration.PREFIX
            + "max.slots')");
  }

  private static DiskCache open(
      Path home,
      DiskDirectory slot,
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanos)
      throws DiskUnavailableException {
    try {
      return new DiskCache(home, slot, configuration, maxQueuedBytes, nanos);
    } catch (IOException | UncheckedIOException e) {
      // Claimed and probed: only the listing (recovery) can fail here.
      slot.release();
      throw new DiskUnavailableException("it cannot be listed (" + e + ")", e);
    } catch (RuntimeException e) {
      slot.release();
      throw e;
    }
  }

  /**
   * Whether {@code other} bounds the directory as this cache's configuration does: its size and its
   * number of slots.
   */
  boolean boundedAs(DiskCacheConfiguration other) {
    return configuration.maxSize() == other.maxSize()
        && configuration.maxSlots() == other.maxSlots();
  }

  /** The settings the cache was opened with. */
  DiskCacheConfiguration configuration() {
    return configuration;
  }

  /** The slot of the configured directory this cache holds. */
  Path slot() {
    return slot.path();
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
