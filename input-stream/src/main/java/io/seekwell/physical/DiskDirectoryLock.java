package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk tier's hold on its directory: the directory exists (created if missing), this process
 * holds an exclusive lock on {@code .lock} in it until {@link #release}, and its file system had at
 * least {@link #MIN_USABLE_BYTES} usable when the lock was taken. A directory that fails any of
 * these is refused with the reason, and the factory reads without the tier.
 */
final class DiskDirectoryLock {

  /**
   * The fewest bytes the directory's file system must have usable when the tier starts: the
   * smallest bound the tier takes ({@link DiskCacheConfiguration#MIN_SIZE}, 1 MiB), which is also
   * its largest single write (16 granules). With less, the disk is full for the tier: every write
   * would fail and pause it.
   */
  static final long MIN_USABLE_BYTES = DiskCacheConfiguration.MIN_SIZE;

  private static final Logger LOG = LoggerFactory.getLogger(DiskDirectoryLock.class);
  private static final String LOCK_FILE = ".lock";

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;

  private DiskDirectoryLock(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates {@code directory} if missing, locks it, and checks that {@code space} says enough bytes
   * are usable in it; on any failure, nothing stays held.
   *
   * @throws DiskUnavailableException if it cannot be created or locked, another process (or this
   *     one, under another path) holds it, or its disk is full
   */
  static DiskDirectoryLock claim(Path directory, UsableSpace space)
      throws DiskUnavailableException {
    FileChannel channel = null;
    try {
      Files.createDirectories(directory);
      channel =
          FileChannel.open(
              directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      long usable = usableIn(directory, space);
      if (usable < MIN_USABLE_BYTES) {
        throw new DiskUnavailableException(
            "its file system has "
                + usable
                + " bytes usable, fewer than the "
                + MIN_USABLE_BYTES
                + " the disk cache needs to start");
      }
      return new DiskDirectoryLock(directory, channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new DiskUnavailableException("it cannot be created or locked (" + e + ")", e);
    } catch (DiskUnavailableException | RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  private static long usableIn(Path directory, UsableSpace space) throws DiskUnavailableException {
    try {
      return space.bytesIn(directory);
    } catch (IOException e) {
      throw new DiskUnavailableException("its free space cannot be read (" + e + ")", e);
    }
  }

  private static FileLock tryLock(FileChannel channel)
      throws IOException, DiskUnavailableException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new DiskUnavailableException(
          "this process holds its lock already, under another path", e);
    }
    if (lock == null) {
      throw new DiskUnavailableException(
          "another process holds its lock ("
              + LOCK_FILE
              + "), and one process at a time uses a directory");
    }
    return lock;
  }

  /** Releases the lock and closes its file. */
  void release() {
    try {
      lock.release();
    } catch (IOException e) {
      LOG.warn("Disk cache in {}: releasing the lock failed", directory, e);
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.debug("Closing a disk cache lock file failed", e);
      }
    }
  }
}
