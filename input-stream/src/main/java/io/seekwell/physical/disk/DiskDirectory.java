package io.seekwell.physical.disk;

import com.sun.nio.file.ExtendedOpenOption;
import io.seekwell.physical.ObjectKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot of a disk tier's directory ({@code slot-<n>} in it), claimed for this process: it holds
 * the slot's lock ({@link DiskDirectoryLock}), knows how to write there (direct I/O or not, aligned
 * to what), names the files of each object version, and lists what an earlier run left in the slot
 * (crash recovery: a data file whose index was never written goes). Immutable once opened, apart
 * from the lock it releases.
 */
final class DiskDirectory {

  // Logs under the disk tier's name, the one operators filter on.
  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);
  private static final String INDEX_SUFFIX = ".index";
  private static final String DATA_SUFFIX = ".data";
  private static final String PROBE_PREFIX = ".direct";
  private static final String PROBE_SUFFIX = ".probe";

  /**
   * An object version found in the directory: its name and the bytes its index lists, estimated
   * from the index's header and size ({@link GranuleIndex#estimatedBytes}).
   */
  record Listed(String name, long estimatedBytes) {}

  private final Path path;
  private final DiskDirectoryLock lock;
  private final DataFileWriter.Staging staging;

  private DiskDirectory(Path path, DiskDirectoryLock lock, DataFileWriter.Staging staging) {
    this.path = path;
    this.lock = lock;
    this.staging = staging;
  }

  /**
   * Claims the slot {@code path} (see {@link DiskDirectoryLock#claim}, which says what {@code
   * keepOpen} is for) and probes it for direct I/O; on failure, releases it.
   *
   * @return the slot, or none if another process or another scope of this one holds it
   * @throws DiskUnavailableException if it cannot be claimed or written
   */
  static Optional<DiskDirectory> open(Path path, UsableSpace space, Consumer<FileChannel> keepOpen)
      throws DiskUnavailableException {
    Optional<DiskDirectoryLock> claimed = DiskDirectoryLock.claim(path, space, keepOpen);
    if (claimed.isEmpty()) {
      return Optional.empty();
    }
    DiskDirectoryLock lock = claimed.get();
    try {
      return Optional.of(new DiskDirectory(path, lock, stagingFor(path)));
    } catch (IOException | UncheckedIOException e) {
      lock.release();
      throw new DiskUnavailableException("it cannot be written (" + e + ")", e);
    } catch (RuntimeException e) {
      lock.release();
      throw e;
    }
  }

  Path path() {
    return path;
  }

  /**
   * The writer's staging buffer for the directory's file system; only the tier's one writer thread
   * uses it.
   */
  DataFileWriter.Staging staging() {
    return staging;
  }

  /**
   * The unit direct I/O in {@code directory} must be aligned to: its file system's block size, at
   * least 4 KiB, or 4 KiB if the file system does not tell.
   */
  private static int alignmentIn(Path directory) {
    try {
      long blockSize = Files.getFileStore(directory).getBlockSize();
      return (int) Math.min(GranuleIndex.GRANULE, Math.max(4096, blockSize));
    } catch (IOException | UnsupportedOperationException e) {
      LOG.debug("Disk cache in {}: block size unknown, aligning to 4 KiB", directory, e);
      return 4096;
    }
  }

  private static DataFileWriter.Staging stagingFor(Path directory) throws IOException {
    int alignment = alignmentIn(directory);
    return new DataFileWriter.Staging(
        ByteBuffer.allocateDirect(DiskObject.MAX_RUN + 2 * alignment).alignedSlice(alignment),
        alignment,
        directWritesWork(directory));
  }

  /**
   * Whether files in {@code directory} can be opened for direct I/O; where the file system refuses
   * it (a few do), the tier writes through the page cache.
   */
  private static boolean directWritesWork(Path directory) throws IOException {
    Path probe = Files.createTempFile(directory, PROBE_PREFIX, PROBE_SUFFIX);
    try (FileChannel channel =
        FileChannel.open(probe, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
      return channel.isOpen();
    } catch (IOException | UnsupportedOperationException e) {
      LOG.info(
          "Disk cache in {}: no direct I/O here ({}); writes go through the page cache",
          directory,
          e.toString());
      return false;
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  /**
   * The object versions the directory holds, least recently written first, each estimated from its
   * index's header; a data file whose index was never written and a direct I/O probe never deleted
   * (both left by a crash) are of no use and are deleted.
   */
  List<Listed> recover() throws IOException {
    record Found(String name, long estimatedBytes, FileTime modified) {}
    List<Found> found = new ArrayList<>();
    List<Path> dataFiles = new ArrayList<>();
    try (Stream<Path> files = Files.list(path)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(INDEX_SUFFIX)) {
          found.add(
              new Found(
                  name.substring(0, name.length() - INDEX_SUFFIX.length()),
                  GranuleIndex.estimatedBytes(file, Files.size(file)),
                  Files.getLastModifiedTime(file)));
        } else if (name.endsWith(DATA_SUFFIX)) {
          dataFiles.add(file);
        } else if (name.startsWith(PROBE_PREFIX) && name.endsWith(PROBE_SUFFIX)) {
          Files.deleteIfExists(file); // only the slot's holder probes, and its probe is gone
        }
      }
    }
    for (Path data : dataFiles) {
      String name = data.getFileName().toString();
      if (!Files.exists(path.resolve(name.replace(DATA_SUFFIX, INDEX_SUFFIX)))) {
        Files.deleteIfExists(data);
      }
    }
    found.sort(Comparator.comparing(Found::modified));
    return found.stream().map(entry -> new Listed(entry.name(), entry.estimatedBytes())).toList();
  }

  /** The identity an object version's index names: location, length, ETag, SSE-C key MD5. */
  static String identity(ObjectKey key) {
    return key.location()
        + "\n"
        + key.length()
        + "\n"
        + (key.etag() == null ? "" : key.etag())
        + "\n"
        + key.scope().customerKeyMd5();
  }

  /** The name an object version's files have: the SHA-256 of its {@code identity}. */
  static String nameOf(String identity) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(identity.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java runtime has SHA-256", e);
    }
  }

  /** The object named {@code name} here; see {@link DiskObject#DiskObject} for the rest. */
  DiskObject object(String name, boolean listed, long storedBytes, LongConsumer sizeChanges) {
    return new DiskObject(
        dataFile(path, name), indexFile(path, name), listed, storedBytes, sizeChanges);
  }

  /** The data file of the object named {@code name} in {@code slot}. */
  static Path dataFile(Path slot, String name) {
    return slot.resolve(name + DATA_SUFFIX);
  }

  /** The index file of the object named {@code name} in {@code slot}. */
  static Path indexFile(Path slot, String name) {
    return slot.resolve(name + INDEX_SUFFIX);
  }

  /** Releases the directory's lock. */
  void release() {
    lock.release();
  }
}
