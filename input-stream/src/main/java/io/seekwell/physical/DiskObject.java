package io.seekwell.physical;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;

/**
 * The bytes of one immutable object version kept by the {@link DiskTier}: a sparse data file with
 * the object's bytes at their own offsets, and an append-only index file ({@link GranuleIndex})
 * that names the object and lists the 64 KiB granules written, each with its CRC32C. A granule
 * counts only once its index record is complete and its bytes match the checksum, so a crash
 * mid-write, a torn record or a file someone cut short never serves a wrong byte: the granule is
 * fetched again. The data file is read by a {@link DataFileReader}.
 *
 * <p><b>Design notes.</b> The object's monitor guards loading ({@link #load}: reading the index
 * file, creating or truncating it, which is I/O under the monitor, once per object) and {@link
 * #remove}; {@code index} and {@code reader} are set once under it and read without it (volatile)
 * only after {@link #load} returned true. Reads of granules run concurrently on fetch threads, with
 * no lock of this class ({@link DataFileReader} has its own notes); writes come from the tier's one
 * writer thread. {@code removed} is volatile: a write or size change that races with removal may
 * still run, and its files are deleted by the removal.
 */
final class DiskObject {

  /**
   * The most granule bytes one read copies or one system call writes: 16 granules, within a core's
   * L2 cache, and few enough wake-ups of the readers waiting for them.
   */
  static final int MAX_RUN = 16 * GranuleIndex.GRANULE;

  private final Path data;
  private final Path indexFile;
  private final LongConsumer sizeChanges;
  private final boolean listed;
  private final AtomicLong storedBytes;

  // Set by load() under the monitor; read without it only after load() returned true.
  private String identity;
  private volatile GranuleIndex index;
  private volatile DataFileReader reader;
  private volatile boolean removed;

  /**
   * An object stored as {@code data} and {@code indexFile}, thought to hold {@code storedBytes}
   * (exact once loaded); every later change of its stored bytes is told to {@code sizeChanges}.
   * Only a {@code listed} object (its index found in the directory) has files to read: another
   * starts empty without looking.
   */
  DiskObject(
      Path data, Path indexFile, boolean listed, long storedBytes, LongConsumer sizeChanges) {
    this.data = data;
    this.indexFile = indexFile;
    this.listed = listed;
    this.storedBytes = new AtomicLong(storedBytes);
    this.sizeChanges = sizeChanges;
  }

  private void changeStored(long delta) {
    if (!removed) {
      storedBytes.addAndGet(delta);
      sizeChanges.accept(delta);
    }
  }

  Path indexFile() {
    return indexFile;
  }

  long storedBytes() {
    return storedBytes.get();
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
    GranuleIndex loaded = new GranuleIndex(length);
    byte[] header = GranuleIndex.header(identity, length);
    byte[] stored = null;
    try {
      if (listed) {
        stored = Files.readAllBytes(indexFile);
      }
    } catch (NoSuchFileException e) {
      // Removed since it was listed: the object starts empty.
    }
    long valid = 0;
    if (stored != null && GranuleIndex.startsWith(stored, header)) {
      valid = header.length + loaded.readRecords(stored, header.length);
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
    this.reader = new DataFileReader(data, length);
    this.index = loaded;
    changeStored(loaded.listedBytes() - storedBytes.get());
    return true;
  }

  private FileChannel openIndex(boolean fresh) throws IOException {
    return fresh
        ? FileChannel.open(
            indexFile,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)
        : FileChannel.open(indexFile, StandardOpenOption.WRITE);
  }

  /** The loaded index; null before {@link #load}. */
  GranuleIndex index() {
    return index;
  }

  /** Whether the index is loaded and lists {@code granule}. */
  boolean holds(int granule) {
    GranuleIndex loaded = index;
    return loaded != null && loaded.isPresent(granule);
  }

  /**
   * Copies the stored granules from {@code granule} on that fit whole in {@code length} bytes (at
   * most {@link #MAX_RUN}, within one mapping) into {@code array} at {@code offset}, and checks
   * each. The first granule cut short or failing its checksum is forgotten, so that it is fetched
   * and written again, and told to {@code onBad} (once, however many readers find it). Call only
   * after {@link #load} returned true.
   *
   * @return how many bytes, from the start of {@code granule}, are the object's: whole granules
   *     (the object's last may be shorter), 0 if the first is not stored or does not fit
   */
  int read(int granule, byte[] array, int offset, int length, Runnable onBad) throws IOException {
    GranuleIndex granules = index;
    int count = 0;
    int size = 0;
    for (int next = granule;
        next < granules.granules()
            && granules.isPresent(next)
            && size + granules.lengthOf(next) <= length;
        next++) {
      size += granules.lengthOf(next);
      count++;
      if (size >= MAX_RUN || GranuleIndex.startOf(next + 1) % DataFileReader.REGION == 0) {
        break;
      }
    }
    if (count == 0) {
      return 0;
    }
    int arrived = reader.copy(GranuleIndex.startOf(granule), array, offset, size);
    int good = 0;
    for (int next = granule; next < granule + count; next++) {
      int granuleLength = granules.lengthOf(next);
      if (good + granuleLength > arrived
          || !granules.matches(next, array, offset + good, granuleLength)) {
        if (granules.forget(next)) {
          changeStored(-granuleLength);
          onBad.run();
        }
        break;
      }
      good += granuleLength;
    }
    return good;
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
   * files are open only during the call. Call only after {@link #load} returned true.
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
    GranuleIndex listed = index;
    ByteBuffer records = ByteBuffer.allocate(granules.size() * GranuleIndex.RECORD);
    Map<Integer, Integer> written = new LinkedHashMap<>();
    staging.clear();
    long runStart = 0;
    long bytes = 0;
    for (Map.Entry<Integer, List<ByteBuffer>> entry : granules.entrySet()) {
      int granule = entry.getKey();
      long start = GranuleIndex.startOf(granule);
      if (runStart + staging.position() != start || staging.position() >= MAX_RUN) {
        writeStaged(channel, runStart, staging, alignment);
        runStart = start;
      }
      CRC32C crc = new CRC32C();
      long given = 0;
      for (ByteBuffer part : entry.getValue()) {
        crc.update(part.duplicate());
        given += part.remaining();
        staging.put(part.duplicate());
      }
      if (given != listed.lengthOf(granule)) {
        throw new IllegalStateException("Granule " + granule + " was given " + given + " bytes");
      }
      int checksum = (int) crc.getValue();
      GranuleIndex.putRecord(records, granule, checksum);
      written.put(granule, checksum);
      bytes += given;
    }
    writeStaged(channel, runStart, staging, alignment);
    records.flip();
    while (records.hasRemaining()) {
      indexWriter.write(records, indexWriter.size());
    }
    written.forEach(listed::add);
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

  /** Releases the object's mappings (see {@link DataFileReader#unmap}); reads map again. */
  void unmap() {
    DataFileReader loaded = reader;
    if (loaded != null) {
      loaded.unmap();
    }
  }

  /** Unmaps the files and deletes them; reads going on fail and are served by a GET. */
  void remove() throws IOException {
    DataFileReader loaded;
    synchronized (this) {
      changeStored(-storedBytes.get());
      removed = true;
      loaded = reader;
    }
    if (loaded != null) {
      loaded.close();
    }
    Files.deleteIfExists(indexFile);
    Files.deleteIfExists(data);
  }
}
