package io.seekwell.physical.disk;

import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.physical.Block;
import io.seekwell.physical.BlockPins;
import io.seekwell.physical.HeldBytes;
import io.seekwell.physical.ObjectBlocks;
import io.seekwell.physical.ObjectKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the granules of fetched blocks to a disk tier, on one writer thread, off the read path.
 * {@link #store} (on a fetch thread) gathers the granules of a block the disk does not hold yet and
 * whose bytes are all in memory (in the block, or in the complete blocks next to it for a granule
 * that straddles its edge), pins those blocks, and queues the write; the writer thread writes it,
 * keeps the tier within its bound ({@link DiskEviction}), and unpins.
 *
 * <p><b>Design notes.</b> A queued write pins its blocks until written, so their memory stays
 * counted in the block cache's budget; {@code queuedBytes} (atomic) bounds the bytes queued, and a
 * block that does not fit is not written (counted as {@link Metric#DISK_WRITES_SKIPPED}), as is one
 * the queue of {@value #QUEUED_WRITES} writes refuses. The writer thread alone uses the directory's
 * staging buffer. {@link #close} lets the writer finish for up to {@value #WRITES_AT_CLOSE_SECONDS}
 * s, then unpins what it had not written.
 */
final class DiskWriter {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);
  private static final int QUEUED_WRITES = 64;
  private static final long WRITES_AT_CLOSE_SECONDS = 10;

  /** The most blocks one granule's bytes are gathered from. */
  private static final int MAX_BLOCKS_PER_GRANULE = 8;

  private final Path directory;
  private final DataFileWriter.Staging staging;
  private final DiskObjects objects;
  private final DiskEviction eviction;
  private final DiskBreaker breaker;
  private final long maxQueuedBytes;
  private final AtomicLong queuedBytes = new AtomicLong();
  private final ThreadPoolExecutor writer =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(QUEUED_WRITES),
          DaemonPools.threadFactory("seekwell-disk-writer-"));

  DiskWriter(
      DiskDirectory directory,
      DiskObjects objects,
      DiskEviction eviction,
      DiskBreaker breaker,
      long maxQueuedBytes) {
    this.directory = directory.path();
    this.staging = directory.staging();
    this.objects = objects;
    this.eviction = eviction;
    this.breaker = breaker;
    this.maxQueuedBytes = maxQueuedBytes;
  }

  /**
   * Queues for writing the granules of {@code block} (complete, of {@code key}'s object) that the
   * disk does not hold yet and whose bytes are all in memory. The blocks used stay pinned until the
   * granules are written.
   */
  void store(ObjectKey key, ObjectBlocks owner, Block block, Metrics metrics) {
    if (breaker.isPaused()) {
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
      return;
    }
    String identity = DiskDirectory.identity(key);
    String name = DiskDirectory.nameOf(identity);
    DiskObject known = objects.find(name);
    Map<Integer, List<HeldBytes>> granules = new LinkedHashMap<>();
    BlockPins pins = new BlockPins();
    long bytes = 0;
    int last = GranuleIndex.granuleOf(block.range().end());
    for (int granule = GranuleIndex.granuleOf(block.range().start()); granule <= last; granule++) {
      if (known != null && known.holds(granule)) {
        continue;
      }
      long start = GranuleIndex.startOf(granule);
      long end = Math.min(GranuleIndex.startOf(granule + 1), key.length());
      List<HeldBytes> held = owner.pinHeld(block, start, end, MAX_BLOCKS_PER_GRANULE, pins);
      if (held != null) {
        granules.put(granule, held);
        bytes += end - start;
      }
    }
    if (granules.isEmpty()) {
      pins.release();
      return;
    }
    long queued = queuedBytes.addAndGet(bytes);
    if (queued > maxQueuedBytes && queued != bytes) { // one write may always wait, however large
      queuedBytes.addAndGet(-bytes);
      pins.release();
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
      return;
    }
    Write write = new Write(key, identity, name, granules, pins.toList(), bytes, metrics);
    try {
      writer.execute(write);
    } catch (RejectedExecutionException e) {
      write.release();
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
    }
  }

  /** One block's granules to write; holds its blocks' pins until it has run or been dropped. */
  private final class Write implements Runnable {
    private final ObjectKey key;
    private final String identity;
    private final String name;
    private final Map<Integer, List<HeldBytes>> granules;
    private final List<Block> pinned;
    private final long bytes;
    private final Metrics metrics;

    Write(
        ObjectKey key,
        String identity,
        String name,
        Map<Integer, List<HeldBytes>> granules,
        List<Block> pinned,
        long bytes,
        Metrics metrics) {
      this.key = key;
      this.identity = identity;
      this.name = name;
      this.granules = granules;
      this.pinned = pinned;
      this.bytes = bytes;
      this.metrics = metrics;
    }

    @Override
    public void run() {
      try {
        if (breaker.isPaused()) {
          metrics.increment(Metric.DISK_WRITES_SKIPPED);
          return;
        }
        DiskObject object = objects.useOrCreate(name);
        if (!DiskObjects.load(object, identity, key.length(), metrics)) {
          return;
        }
        Map<Integer, List<ByteBuffer>> missing = new LinkedHashMap<>();
        granules.forEach(
            (granule, held) -> {
              if (!object.holds(granule)) {
                missing.put(
                    granule, held.stream().flatMap(bytes -> bytes.bytes().stream()).toList());
              }
            });
        if (!missing.isEmpty()) {
          metrics.add(Metric.DISK_BYTES_WRITTEN, object.write(missing, staging));
        }
        eviction.evictBeyondBound(metrics);
      } catch (ClosedChannelException e) {
        LOG.debug("Disk cache in {}: {} was evicted while written", directory, key.location());
      } catch (IOException e) {
        breaker.trip("writing " + key.location() + " " + granules.keySet(), e, metrics);
      } finally {
        release();
      }
    }

    void release() {
      queuedBytes.addAndGet(-bytes);
      BlockPins.release(pinned);
    }
  }

  /** Waits (up to 10 s) for the writes queued so far, so that none still pins a caller's blocks. */
  void awaitQueued() {
    try {
      writer.submit(() -> {}).get(WRITES_AT_CLOSE_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      LOG.debug("Disk cache in {}: interrupted while waiting for the queued writes", directory);
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
      LOG.warn(
          "Disk cache in {}: queued writes did not finish within {} s",
          directory,
          WRITES_AT_CLOSE_SECONDS,
          e);
    }
  }

  /**
   * Lets the writer finish the writes queued (for up to 10 s; what is left then is dropped and
   * unpinned), and stops it.
   */
  void close() {
    writer.shutdown();
    try {
      if (!writer.awaitTermination(WRITES_AT_CLOSE_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn(
            "Disk cache in {}: queued writes did not finish within {} s; the rest are dropped",
            directory,
            WRITES_AT_CLOSE_SECONDS);
      }
    } catch (InterruptedException e) {
      LOG.debug(
          "Disk cache in {}: interrupted while waiting for the queued writes; those not yet"
              + " written are dropped",
          directory);
      Thread.currentThread().interrupt();
    }
    for (Runnable pending : writer.shutdownNow()) {
      if (pending instanceof Write write) {
        write.release();
      }
    }
  }
}
