package io.seekwell.physical.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@link DiskObject}'s data file. Bytes the page cache holds are copied out of memory
 * mappings of the file (one per gigabyte, made on first read): one copy into the block, where a
 * positional read into a heap array costs two (the kernel's, then the JDK's out of its direct
 * buffer). Bytes it does not hold are read with a positional read, so that a mapping never faults
 * on the device: a fault under a mapping (a device error, or a file cut short by someone else) is
 * reported by the JVM as an {@link InternalError} at the copy or a little later on the same thread.
 * A mapping covers the object's whole length; making it extends a shorter file with a hole, which
 * reads as zeros and fails its checksum. Where the runtime cannot release a mapping at once ({@link
 * Mappings#available()}), every read is a positional read. The file is open only while a read is
 * made or a region mapped.
 *
 * <p><b>Design notes.</b> {@code regions} (an atomic array, so it needs no monitor) holds the
 * mappings; the read-write lock {@code mappings} guards their lifetime and no more. A copy out of a
 * mapping, and the making of a mapping, hold it shared, on the fetch threads that read; a copy runs
 * concurrently with others. Two readers that map one region at once each make a mapping; the one
 * whose compare-and-set loses unmaps its own, which nobody else has seen. {@link #unmap} (on the
 * thread that evicts the object from the tier's bound of mappings, removes it, or closes the cache)
 * holds it exclusive while it takes the mappings out and unmaps them, so no mapping goes away under
 * a copy. It waits a second at most: a lock a fault under a mapping stranded is given up on, and
 * the collector unmaps. Once {@link #close}d, no mapping is made again.
 */
final class DataFileReader {

  private static final Logger LOG =
      LoggerFactory.getLogger(DiskObject.class); // the name operators know

  /** The bytes one mapping covers: a multiple of {@link DiskObject#MAX_RUN}, below 2 GiB. */
  static final long REGION = 1L << 30;

  /** How long unmapping waits for the copies going on, which take microseconds. */
  private static final long UNMAP_WAIT_SECONDS = 1;

  private final Path data;
  private final long length;
  private final AtomicReferenceArray<MappedByteBuffer> regions;
  private final ReentrantReadWriteLock mappings = new ReentrantReadWriteLock();
  private volatile boolean closed;

  /** Reads of {@code data}, the file of an object of {@code length} bytes. */
  DataFileReader(Path data, long length) {
    this.data = data;
    this.length = length;
    this.regions = new AtomicReferenceArray<>(Math.toIntExact((length + REGION - 1) / REGION));
  }

  /**
   * Copies {@code size} bytes of the file from {@code position} (all in one mapping) into {@code
   * array} at {@code offset}: out of the mapping if the page cache holds them all (and the runtime
   * can unmap files), else with a positional read, which also brings them into the page cache.
   *
   * @return how many bytes the file had
   * @throws ClosedChannelException if the object was removed meanwhile
   */
  int copy(long position, byte[] array, int offset, int size) throws IOException {
    if (Mappings.available()) {
      Lock shared = mappings.readLock();
      shared.lock();
      try {
        MappedByteBuffer region = region(position);
        int at = (int) (position % REGION);
        if (region.slice(at, size).isLoaded()) {
          region.get(at, array, offset, size);
          return size;
        }
      } finally {
        shared.unlock();
      }
    }
    ByteBuffer target = ByteBuffer.wrap(array, offset, size);
    try (FileChannel channel = FileChannel.open(data, StandardOpenOption.READ)) {
      while (target.hasRemaining()) {
        if (channel.read(target, position + target.position() - offset) < 0) {
          break;
        }
      }
    } catch (NoSuchFileException e) {
      // Evicted meanwhile (or deleted): the GET serves it.
      ClosedChannelException evicted = new ClosedChannelException();
      evicted.initCause(e);
      throw evicted;
    }
    return target.position() - offset;
  }

  /** The mapping holding {@code position}, made if it is not yet; the caller holds the lock. */
  private MappedByteBuffer region(long position) throws IOException {
    if (closed) {
      throw new ClosedChannelException();
    }
    int index = (int) (position / REGION);
    MappedByteBuffer region = regions.get(index);
    if (region != null) {
      return region;
    }
    long start = index * REGION;
    MappedByteBuffer made;
    // Opened for writing too: mapping extends a file shorter than the object, with a hole.
    try (FileChannel channel =
        FileChannel.open(
            data, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      made = channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(REGION, length - start));
    }
    MappedByteBuffer existing = regions.compareAndExchange(index, null, made);
    if (existing != null) {
      Mappings.unmap(made); // another reader mapped it first; nobody has seen this one
      return existing;
    }
    return made;
  }

  /**
   * Releases the mappings (waiting for the copies going on); the next read maps again. The tier
   * calls it to bound the mappings the process holds.
   */
  void unmap() {
    Lock exclusive = mappings.writeLock();
    boolean locked = false;
    try {
      locked = exclusive.tryLock(UNMAP_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      // A copy still holds (or a fault made it leak) its lock: the collector unmaps these later.
      LOG.warn("Disk cache: {} is still being read; its mappings go when no longer used", data);
      for (int index = 0; index < regions.length(); index++) {
        regions.set(index, null);
      }
      return;
    }
    try {
      for (int index = 0; index < regions.length(); index++) {
        MappedByteBuffer region = regions.getAndSet(index, null);
        if (region != null) {
          Mappings.unmap(region);
        }
      }
    } finally {
      exclusive.unlock();
    }
  }

  /** Unmaps for good: reads going on fail, and no mapping is made again. */
  void close() {
    closed = true;
    unmap();
  }
}
