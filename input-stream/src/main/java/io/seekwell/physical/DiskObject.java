package io.seekwell.physical;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of one immutable object version kept by the {@link DiskTier}: a sparse data file with
 * the object's bytes at their own offsets, and an append-only index file that names the object and
 * lists the 64 KiB granules written, each with its CRC32C. A granule counts only once its index
 * record is complete and its bytes match the checksum, so a crash mid-write, a torn record or a
 * file someone cut short never serves a wrong byte: the granule is fetched again.
 *
 * <p>Granules the page cache holds are copied out of memory mappings of the data file (one per
 * gigabyte, made on first read): one copy into the block, where a positional read into a heap array
 * costs two (the kernel's, then the JDK's out of its direct buffer). Granules it does not hold are
 * read with a positional read, so that a mapping never faults on the device: a fault under a
 * mapping (a device error, or a file cut short by someone else) is reported by the JVM as an {@link
 * InternalError} at the copy or a little later on the same thread, which could strand a lock. A
 * mapping covers the object's whole length; making it extends a shorter file with a hole, which
 * reads as zeros and fails its checksum. What is left is a file cut short between the check and the
 * copy; the tier's fill takes the error as a disk error. Where the runtime cannot release a mapping
 * at once ({@link Mappings#available()}), every read is a positional read. Files are open only
 * while a read, a write or a mapping is made.
 *
 * <p>Thread-safety: loading, creating files and mapping are synchronized on the object; reads of
 * granules run concurrently on fetch threads, and writes come from the tier's one writer thread. A
 * granule's checksum is set before its bit in {@code present}, whose atomic write publishes it. A
 * reader holds the read lock of {@code copying} while it copies out of a mapping (taken before it
 * looks the mapping up); unmapping takes the mappings away under the monitor, then unmaps them
 * under the write lock, so that no mapping goes away under a copy. It waits a second at most: a
 * lock a fault stranded is given up on, and the collector unmaps.
 */
final class DiskObject {

  private static final Logger LOG = LoggerFactory.getLogger(DiskObject.class);
  static final int GRANULE = 64 * 1024;
  private static final byte[] MAGIC = "SEEKWELL-DISK-1\n".getBytes(StandardCharsets.US_ASCII);
  private static final int RECORD = 12;

  /**
   * The most granule bytes one read copies or one system call writes: 16 granules, within a core's
   * L2 cache, and few enough wake-ups of the readers waiting for them.
   */
  static final int MAX_RUN = 16 * GRANULE;

  /** How long unmapping waits for the copies going on, which take microseconds. */
  private static final long UNMAP_WAIT_SECONDS = 1;

  /** The bytes one mapping covers: a multiple of {@link #MAX_RUN}, below 2 GiB. */
  private static final long REGION = 1L << 30;

  private final Path data;
  private final Path index;
  private final LongConsumer sizeChanges;
  private final boolean listed;
  private final AtomicLong storedBytes;
  private final ReentrantReadWriteLock copying = new ReentrantReadWriteLock();
  private volatile long lastUsed;

  // Set by load(), guarded by this; read without the lock only after load() returned.
  private String identity;
  private long length;
  private volatile AtomicLongArray present;
  private int[] checksums;
  private MappedByteBuffer[] regions;
  private volatile boolean removed;

  /**
   * An object stored as {@code name}.data and {@code name}.index in {@code directory}, thought to
   * hold {@code storedBytes} (exact once loaded), last used at tick {@code lastUsed}; every later
   * change of its stored bytes is told to {@code sizeChanges}. Only a {@code listed} object (its
   * index found in the directory) has files to read: another starts empty without looking.
   */
  DiskObject(
      Path directory,
      String name,
      boolean listed,
      long storedBytes,
      long lastUsed,
      LongConsumer sizeChanges) {
    this.data = directory.resolve(name + ".data");
    this.index = directory.resolve(name + ".index");
    this.listed = listed;
    this.storedBytes = new AtomicLong(storedBytes);
    this.lastUsed = lastUsed;
    this.sizeChanges = sizeChanges;
  }

  private void changeStored(long delta) {
    if (!removed) {
      storedBytes.addAndGet(delta);
      sizeChanges.accept(delta);
    }
  }

  /** The estimate of bytes an index file of {@code indexSize} bytes lists, before loading it. */
  static long estimatedBytes(long indexSize) {
    return Math.max(0, indexSize / RECORD) * GRANULE;
  }

  Path indexFile() {
    return index;
  }

  long storedBytes() {
    return storedBytes.get();
  }

  long lastUsed() {
    return lastUsed;
  }

  void used(long tick) {
    lastUsed = tick;
  }

  /**
   * Reads the index, once, as the object {@code identity} of {@code length} bytes. An index that
   * names another object (or cannot be read as one) is foreign: both files are dropped and the
   * object starts empty.
   *
   * @return false if the object was removed (evicted) and cannot be used
   * @throws IOException if the files cannot be read or created
   */
  synchronized boolean load(String identity, long length, Runnable onForeign) throws IOException {
    if (removed) {
      return false;
    }
    if (this.identity != null) {
      if (!this.identity.equals(identity)) {
        onForeign.run();
        return false;
      }
      return true;
    }
    this.identity = identity;
    this.length = length;
    int granules = Math.toIntExact((length + GRANULE - 1) / GRANULE);
    this.checksums = new int[granules];
    this.present = new AtomicLongArray((granules + 63) / 64);
    byte[] header = header(identity, length);
    byte[] stored = null;
    try {
      if (listed) {
        stored = Files.readAllBytes(index);
      }
    } catch (NoSuchFileException e) {
      // Removed since it was listed: the object starts empty.
    }
    long valid = 0;
    if (stored != null && startsWith(stored, header)) {
      valid = header.length + readRecords(stored, header.length);
    } else if (stored != null) {
      onForeign.run();
    }
    if (valid == 0) {
      if (listed) {
        Files.deleteIfExists(data);
      }
      try (FileChannel fresh = openIndex(true)) {
        ByteBuffer bytes = ByteBuffer.wrap(header);
        while (bytes.hasRemaining()) {
          fresh.write(bytes);
        }
      }
    } else {
      try (FileChannel kept = openIndex(false)) {
        kept.truncate(valid);
      }
    }
    changeStored(countStored() - storedBytes.get());
    return true;
  }

  private FileChannel openIndex(boolean fresh) throws IOException {
    return fresh
        ? FileChannel.open(
            index,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)
        : FileChannel.open(index, StandardOpenOption.WRITE);
  }

  /** Takes in the complete, well-formed records from {@code offset}; returns their bytes. */
  private long readRecords(byte[] stored, int offset) {
    ByteBuffer records = ByteBuffer.wrap(stored, offset, stored.length - offset);
    long valid = 0;
    while (records.remaining() >= RECORD) {
      int granule = records.getInt();
      int checksum = records.getInt();
      int recordChecksum = records.getInt();
      if (recordChecksum != recordChecksum(granule, checksum)
          || granule < 0
          || granule >= checksums.length) {
        break;
      }
      checksums[granule] = checksum;
      setPresent(granule);
      valid += RECORD;
    }
    return valid;
  }

  private static byte[] header(String identity, long length) {
    byte[] name = identity.getBytes(StandardCharsets.UTF_8);
    ByteBuffer header = ByteBuffer.allocate(MAGIC.length + 4 + name.length + 8 + 4);
    header.put(MAGIC).putInt(name.length).put(name).putLong(length);
    CRC32C crc = new CRC32C();
    crc.update(header.array(), 0, header.position());
    header.putInt((int) crc.getValue());
    return header.array();
  }

  private static boolean startsWith(byte[] stored, byte[] header) {
    return stored.length >= header.length
        && Arrays.equals(stored, 0, header.length, header, 0, header.length);
  }

  private static int recordChecksum(int granule, int checksum) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(8).putInt(granule).putInt(checksum).flip());
    return (int) crc.getValue();
  }

  /** The granule holding {@code position}. */
  static int granuleOf(long position) {
    return (int) (position / GRANULE);
  }

  /** The first byte of {@code granule}. */
  static long startOf(int granule) {
    return (long) granule * GRANULE;
  }

  /** The length of {@code granule}: 64 KiB, or less for the object's last. */
  int lengthOf(int granule) {
    return (int) Math.min(GRANULE, length - startOf(granule));
  }

  boolean isPresent(int granule) {
    return (present.get(granule / 64) & (1L << (granule % 64))) != 0;
  }

  /** Whether the index is loaded and lists {@code granule}. */
  boolean holds(int granule) {
    AtomicLongArray bits = present;
    return bits != null && (bits.get(granule / 64) & (1L << (granule % 64))) != 0;
  }

  private void setPresent(int granule) {
    present.getAndAccumulate(granule / 64, 1L << (granule % 64), (a, b) -> a | b);
  }

  /**
   * Forgets a granule found bad. Only the caller that clears it is told so: readers of two blocks
   * that share the granule may find it bad together, and it counts as one failure.
   *
   * @return whether this call forgot it
   */
  private boolean forget(int granule) {
    long bit = 1L << (granule % 64);
    if ((present.getAndAccumulate(granule / 64, ~bit, (a, b) -> a & b) & bit) == 0) {
      return false;
    }
    changeStored(-lengthOf(granule));
    return true;
  }

  private long countStored() {
    long bytes = 0;
    for (int granule = 0; granule < checksums.length; granule++) {
      if (isPresent(granule)) {
        bytes += lengthOf(granule);
      }
    }
    return bytes;
  }

  /**
   * Copies the stored granules from {@code granule} on that fit whole in {@code length} bytes (at
   * most {@link #MAX_RUN}, within one mapping) into {@code array} at {@code offset}, and checks
   * each. The first granule cut short or failing its checksum is forgotten, so that it is fetched
   * and written again, and told to {@code onBad} (once, however many readers find it).
   *
   * @return how many bytes, from the start of {@code granule}, are the object's: whole granules
   *     (the object's last may be shorter), 0 if the first is not stored or does not fit
   */
  int read(int granule, byte[] array, int offset, int length, Runnable onBad) throws IOException {
    int granules = 0;
    int size = 0;
    for (int next = granule;
        next < checksums.length && isPresent(next) && size + lengthOf(next) <= length;
        next++) {
      size += lengthOf(next);
      granules++;
      if (size >= MAX_RUN || startOf(next + 1) % REGION == 0) {
        break;
      }
    }
    if (granules == 0) {
      return 0;
    }
    int arrived = copy(startOf(granule), array, offset, size);
    int good = 0;
    for (int next = granule; next < granule + granules; next++) {
      int granuleLength = lengthOf(next);
      if (good + granuleLength > arrived || !matches(next, array, offset + good, granuleLength)) {
        if (forget(next)) {
          onBad.run();
        }
        break;
      }
      good += granuleLength;
    }
    return good;
  }

  private boolean matches(int granule, byte[] array, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(array, offset, length);
    return (int) crc.getValue() == checksums[granule];
  }

  /**
   * How the writer thread writes: through {@code buffer} (its own; direct, aligned to {@code
   * alignment}, at least {@link #MAX_RUN} plus one alignment unit long), with direct I/O if {@code
   * direct}, in whole units of {@code alignment}.
   */
  record Staging(ByteBuffer buffer, int alignment, boolean direct) {}

  /**
   * Writes whole granules, each given as the buffers that hold its bytes in order (ascending), then
   * their index records; a granule counts once both are written. The bytes of consecutive granules
   * are copied into the staging buffer and written from it, up to {@link #MAX_RUN} per write. The
   * files are open only during the call.
   *
   * @return the bytes written
   */
  long write(Map<Integer, List<ByteBuffer>> granules, Staging staging) throws IOException {
    try (FileChannel channel = openData(staging.direct());
        FileChannel indexWriter = openIndex(false)) {
      return write(granules, channel, indexWriter, staging.buffer(), staging.alignment());
    }
  }

  private long write(
      Map<Integer, List<ByteBuffer>> granules,
      FileChannel channel,
      FileChannel indexWriter,
      ByteBuffer staging,
      int alignment)
      throws IOException {
    ByteBuffer records = ByteBuffer.allocate(granules.size() * RECORD);
    Map<Integer, Integer> written = new LinkedHashMap<>();
    staging.clear();
    long runStart = 0;
    long bytes = 0;
    for (Map.Entry<Integer, List<ByteBuffer>> entry : granules.entrySet()) {
      int granule = entry.getKey();
      if (runStart + staging.position() != startOf(granule) || staging.position() >= MAX_RUN) {
        writeStaged(channel, runStart, staging, alignment);
        runStart = startOf(granule);
      }
      CRC32C crc = new CRC32C();
      long given = 0;
      for (ByteBuffer part : entry.getValue()) {
        crc.update(part.duplicate());
        given += part.remaining();
        staging.put(part.duplicate());
      }
      if (given != lengthOf(granule)) {
        throw new IllegalStateException("Granule " + granule + " was given " + given + " bytes");
      }
      int checksum = (int) crc.getValue();
      records.putInt(granule).putInt(checksum).putInt(recordChecksum(granule, checksum));
      written.put(granule, checksum);
      bytes += given;
    }
    writeStaged(channel, runStart, staging, alignment);
    records.flip();
    while (records.hasRemaining()) {
      indexWriter.write(records, indexWriter.size());
    }
    written.forEach(
        (granule, checksum) -> {
          checksums[granule] = checksum;
          setPresent(granule);
        });
    changeStored(bytes);
    return bytes;
  }

  /**
   * Writes the bytes staged so far at {@code position} of the data file, zero-padded to a whole
   * {@code alignment} unit (only an object's last granule is not whole: the padding lies past the
   * object's end), and empties {@code staging}.
   */
  private static void writeStaged(
      FileChannel channel, long position, ByteBuffer staging, int alignment) throws IOException {
    if (staging.position() == 0) {
      return;
    }
    while (staging.position() % alignment != 0) {
      staging.put((byte) 0);
    }
    staging.flip();
    while (staging.hasRemaining()) {
      channel.write(staging, position + staging.position());
    }
    staging.clear();
  }

  /** Copies {@code size} bytes of the data file from {@code position}, all in one mapping. */
  /**
   * Copies {@code size} bytes of the data file from {@code position} (all in one mapping): out of
   * the mapping if the page cache holds them all (and the runtime can unmap files), else with a
   * positional read, which also brings them into the page cache.
   *
   * @return how many bytes the file had
   */
  private int copy(long position, byte[] array, int offset, int size) throws IOException {
    if (Mappings.available()) {
      Lock shared = copying.readLock();
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
      throw new ClosedChannelException(); // evicted meanwhile (or deleted): the GET serves it
    }
    return target.position() - offset;
  }

  /** The mapping holding {@code position}, made if it is not yet. */
  private synchronized MappedByteBuffer region(long position) throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    if (regions == null) {
      regions = new MappedByteBuffer[Math.toIntExact((length + REGION - 1) / REGION)];
    }
    int index = (int) (position / REGION);
    if (regions[index] == null) {
      long start = index * REGION;
      // Opened for writing too: mapping extends a file shorter than the object, with a hole.
      try (FileChannel channel =
          FileChannel.open(
              data, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        regions[index] =
            channel.map(FileChannel.MapMode.READ_ONLY, start, Math.min(REGION, length - start));
      }
    }
    return regions[index];
  }

  /**
   * Releases the object's mappings (waiting for copies going on); the next read maps again. The
   * tier calls it to bound the mappings the process holds.
   */
  void unmap() {
    MappedByteBuffer[] mapped;
    synchronized (this) {
      mapped = regions;
      regions = null;
    }
    if (mapped == null) {
      return;
    }
    Lock exclusive = copying.writeLock();
    boolean locked = false;
    try {
      locked = exclusive.tryLock(UNMAP_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      // A copy still holds (or a fault made it leak) its lock: the collector unmaps these later.
      LOG.warn("Disk cache: {} is still being read; its mappings go when no longer used", data);
      return;
    }
    try {
      for (MappedByteBuffer region : mapped) {
        if (region != null) {
          Mappings.unmap(region);
        }
      }
    } finally {
      exclusive.unlock();
    }
  }

  /**
   * The data file opened for writing; with {@code direct} I/O the tier's bytes skip the page
   * cache's copy and its writeback, and the kernel drops the range from the page cache for the
   * reads that follow.
   */
  private FileChannel openData(boolean direct) throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    return direct
        ? FileChannel.open(
            data, StandardOpenOption.CREATE, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)
        : FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }

  /** Unmaps the files and deletes them; reads going on fail and are served by a GET. */
  void remove() throws IOException {
    synchronized (this) {
      changeStored(-storedBytes.get());
      removed = true;
    }
    unmap();
    Files.deleteIfExists(index);
    Files.deleteIfExists(data);
  }
}
