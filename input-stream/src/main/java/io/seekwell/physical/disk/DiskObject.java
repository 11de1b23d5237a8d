package io.seekwell.physical.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of one immutable object version kept by the {@link DiskTier}: a sparse data file with
 * the object's bytes at their own offsets, and an append-only index file ({@link GranuleIndex})
 * that names the object and lists the 64 KiB granules written, each with its CRC32C. A granule
 * counts only once its index record is complete and its bytes match the checksum, so a crash
 * mid-write, a torn record or a file someone cut short never serves a wrong byte: the granule is
 * fetched again. The data file is read by a {@link DataFileReader} and written by {@link
 * DataFileWriter}.
 *
 * <p><b>Design notes.</b> The object's monitor guards loading ({@link #load}: reading the index
 * file, creating or truncating it, which is I/O under the monitor, once per object) and {@link
 * #remove}; {@code index} and {@code reader} are set once under it and read without it (volatile)
 * only after {@link #load} returned true. Reads of granules run concurrently on fetch threads, with
 * no lock of this class but to count a bad granule ({@link DataFileReader} has its own notes);
 * writes come from the tier's one writer thread. {@code removed} is volatile: a write that races
 * with removal may still run, and its files are deleted by the removal. A change of the bytes
 * stored takes the monitor (it is rare: once per write, per bad granule, per load), so none is
 * counted after the removal's, which takes the object's whole size off the tier once.
 */
final class DiskObject implements GranuleSource {

  private static final Logger LOG = LoggerFactory.getLogger(DiskObject.class);

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

  private synchronized void changeStored(long delta) {
    if (!removed) {
      storedBytes.addAndGet(delta);
      sizeChanges.accept(delta);
    }
  }

  Path indexFile() {
    return indexFile;
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
      LOG.debug("Disk cache: {} was removed since it was listed; it starts empty", indexFile);
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
  @Override
  public int read(int granule, byte[] array, int offset, int length, Runnable onBad)
      throws IOException {
    GranuleIndex granules = index;
    int size = granules.runLength(granule, length, MAX_RUN, DataFileReader.REGION);
    if (size == 0) {
      return 0;
    }
    int arrived = reader.copy(GranuleIndex.startOf(granule), array, offset, size);
    int good = granules.checkedLength(granule, array, offset, arrived);
    if (good < size) {
      int bad = GranuleIndex.granuleOf(GranuleIndex.startOf(granule) + good);
      if (granules.forget(bad)) {
        changeStored(-granules.lengthOf(bad));
        onBad.run();
      }
    }
    return good;
  }

  @Override
  public int lengthOf(int granule) {
    return index.lengthOf(granule);
  }

  /**
   * Writes whole granules, each given as the buffers that hold its bytes in order (ascending), to
   * the data file (see {@link DataFileWriter}), then their index records; a granule counts once
   * both are written. The files are open only during the call. Call only after {@link #load}
   * returned true.
   *
   * @return the bytes written
   * @throws ClosedChannelException if the object was removed
   */
  long write(Map<Integer, List<ByteBuffer>> granules, DataFileWriter.Staging staging)
      throws IOException {
    if (removed) {
      throw new ClosedChannelException();
    }
    GranuleIndex listed = index;
    Map<Integer, Integer> written = DataFileWriter.write(data, granules, listed, staging);
    ByteBuffer records = ByteBuffer.allocate(written.size() * GranuleIndex.RECORD);
    long bytes = 0;
    for (Map.Entry<Integer, Integer> granule : written.entrySet()) {
      GranuleIndex.putRecord(records, granule.getKey(), granule.getValue());
      bytes += listed.lengthOf(granule.getKey());
    }
    records.flip();
    try (FileChannel indexWriter = openIndex(false)) {
      while (records.hasRemaining()) {
        indexWriter.write(records, indexWriter.size());
      }
    }
    written.forEach(listed::add);
    changeStored(bytes);
    return bytes;
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
