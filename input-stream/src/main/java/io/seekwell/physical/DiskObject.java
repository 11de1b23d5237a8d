package io.seekwell.physical;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * The bytes of one immutable object version kept by the {@link DiskTier}: a sparse data file with
 * the object's bytes at their own offsets, and an append-only index file that names the object and
 * lists the 64 KiB granules written, each with its CRC32C. A granule counts only once its index
 * record is complete and its bytes match the checksum, so a crash mid-write, a torn record or a
 * file someone cut short never serves a wrong byte: the granule is fetched again.
 *
 * <p>Thread-safety: loading, creating files and removing are synchronized on the object; reads of
 * granules run concurrently on fetch threads, and writes come from the tier's one writer thread. A
 * granule's checksum is set before its bit in {@code present}, whose atomic write publishes it.
 */
final class DiskObject {

  static final int GRANULE = 64 * 1024;
  private static final byte[] MAGIC = "SEEKWELL-DISK-1\n".getBytes(StandardCharsets.US_ASCII);
  private static final int RECORD = 12;

  /**
   * The most granule bytes one system call reads or writes: 4 granules, which with the JDK's copy
   * through a direct buffer of the same size stay within a core's L2 cache.
   */
  static final int MAX_RUN = 4 * GRANULE;

  private final Path data;
  private final Path index;
  private final LongConsumer sizeChanges;
  private final boolean listed;
  private final AtomicLong storedBytes;
  private volatile long lastUsed;

  // Set by load(), guarded by this; read without the lock only after load() returned.
  private String identity;
  private long length;
  private volatile AtomicLongArray present;
  private int[] checksums;
  private FileChannel dataChannel;
  private FileChannel writeChannel;
  private FileChannel indexChannel;
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
      indexChannel = openIndex(true);
      indexChannel.write(ByteBuffer.wrap(header));
    } else {
      indexChannel = openIndex(false);
      indexChannel.truncate(valid);
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
   * Reads the stored granules from {@code granule} on that fit whole in {@code length} bytes (at
   * most {@link #MAX_RUN}) into {@code array} at {@code offset}, with one positional read, and
   * checks each. The first granule cut short or failing its checksum is forgotten, so that it is
   * fetched and written again, and told to {@code onBad} (once, however many readers find it).
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
      if (size >= MAX_RUN) {
        break;
      }
    }
    if (granules == 0) {
      return 0;
    }
    ByteBuffer target = ByteBuffer.wrap(array, offset, size);
    FileChannel channel = dataChannel();
    long position = startOf(granule) - offset;
    while (target.hasRemaining()) {
      if (channel.read(target, position + target.position()) < 0) {
        break;
      }
    }
    int arrived = target.position() - offset;
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
   * Writes whole granules, each given as the buffers that hold its bytes in order (ascending), then
   * their index records; a granule counts once both are written. The bytes of consecutive granules
   * are copied into {@code staging} (direct, aligned for direct I/O, at least {@link #MAX_RUN} plus
   * one alignment unit long; the writer thread's own) and written from it, up to {@link #MAX_RUN}
   * per write.
   *
   * @return the bytes written
   */
  long write(Map<Integer, List<ByteBuffer>> granules, ByteBuffer staging, int alignment)
      throws IOException {
    FileChannel channel = writeChannel();
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
    FileChannel indexWriter = indexChannel();
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

  private synchronized FileChannel dataChannel() throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    if (dataChannel == null || !dataChannel.isOpen()) {
      dataChannel =
          FileChannel.open(
              data, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return dataChannel;
  }

  /**
   * The data file opened for the writer, with direct I/O where the file system allows it: the
   * tier's bytes then skip the page cache's copy and its writeback, and the kernel drops the range
   * from the page cache for the reads that follow. Elsewhere, ordinary writes.
   */
  private synchronized FileChannel writeChannel() throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    if (writeChannel == null || !writeChannel.isOpen()) {
      try {
        writeChannel =
            FileChannel.open(
                data,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                ExtendedOpenOption.DIRECT);
      } catch (IOException | UnsupportedOperationException e) {
        writeChannel = FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      }
    }
    return writeChannel;
  }

  private synchronized FileChannel indexChannel() throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    if (indexChannel == null || !indexChannel.isOpen()) {
      indexChannel = openIndex(false);
    }
    return indexChannel;
  }

  /** Closes the files and deletes them; reads going on fail and are served by a GET. */
  synchronized void remove() throws IOException {
    changeStored(-storedBytes.get());
    removed = true;
    close();
    Files.deleteIfExists(index);
    Files.deleteIfExists(data);
  }

  /** Closes the files, keeping them. */
  synchronized void close() throws IOException {
    List<FileChannel> open = new ArrayList<>();
    for (FileChannel channel : new FileChannel[] {dataChannel, writeChannel, indexChannel}) {
      if (channel != null) {
        open.add(channel);
      }
    }
    dataChannel = null;
    writeChannel = null;
    indexChannel = null;
    IOException failure = null;
    for (FileChannel channel : open) {
      try {
        channel.close();
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
