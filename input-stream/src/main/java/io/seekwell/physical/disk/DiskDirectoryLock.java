package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk tier's hold on one slot of its directory: the slot exists (created if missing), this
 * process holds an exclusive lock on {@code .lock} in it until {@link #release}, and its file
 * system had at least {@link #MIN_USABLE_BYTES} usable when the lock was taken. A slot held by
 * another process, or by another scope of this one, is taken; a slot that fails anything else is
 * refused with the reason, and the factory reads without the tier.
 *
 * <p>A process mark ({@code .held-by-<pid>-<start>}) keeps the scopes of one process apart: file
 * locks belong to the process, and closing any channel to a locked file releases the process's lock
 * on it (POSIX), so a second scope must never open the lock file of a slot a first one holds. The
 * mark is created exclusively before the lock file is opened and deleted after it is closed; a
 * scope that finds it in place leaves the slot alone.
 *
 * <p>Another process's mark is never deleted while it may be live: a process trying the slot marks
 * it for the milliseconds its attempt takes, and deleting that mark would let a second scope of
 * that process open the lock file and, closing it, drop the first one's lock. A process that
 * crashed leaves its mark behind; the slot's holder deletes, when it claims the slot, only other
 * processes' marks last modified more than {@link #STALE_MARK_AGE} ago. A stale mark of this
 * process's id and start time cannot exist, as this process deletes its own.
 *
 * <p><b>Design notes.</b> A hold is immutable; {@link #release} runs once, on the thread that
 * closes the cache. Claims run on the threads that build factories, each under its scope's monitor;
 * scopes are kept apart by the marks (the file system's exclusive create), not by a lock of this
 * class. A lock file that must stay open (see {@link #claim}) is handed to the claiming scope,
 * which keeps it; this class keeps no state beyond its holds.
 */
final class DiskDirectoryLock {

  /**
   * The fewest bytes the directory's file system must have usable when the tier starts: the
   * smallest bound the tier takes ({@link DiskCacheConfiguration#MIN_SIZE}, 1 MiB), which is also
   * its largest single write (16 granules). With less, the disk is full for the tier: every write
   * would fail and pause it.
   */
  static final long MIN_USABLE_BYTES = DiskCacheConfiguration.MIN_SIZE;

  /**
   * How long ago another process's mark must have been last modified for the slot's holder to take
   * it as left by a crash and delete it: a live mark of a process trying the slot is milliseconds
   * old.
   */
  static final Duration STALE_MARK_AGE = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(DiskDirectoryLock.class);
  private static final String LOCK_FILE = ".lock";
  private static final String MARK_PREFIX = ".held-by-";
  // This process: its id and start time, so that a later process given the same id differs.
  private static final String MARK =
      MARK_PREFIX
          + ProcessHandle.current().pid()
          + "-"
          + ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(0L);

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;

  private DiskDirectoryLock(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Creates the slot {@code directory} if missing, locks it, and checks that {@code space} says
   * enough bytes are usable in it; on any failure, nothing stays held. If another scope of this
   * process holds the slot's lock without its mark (marks keep scopes apart, so this is not
   * expected), the lock file this claim opened cannot be closed, as closing it would release that
   * scope's lock: it goes to {@code keepOpen}, which must keep it referenced (an unreferenced
   * channel is closed when collected).
   *
   * @return the hold, or none if another process or another scope of this one holds the slot
   * @throws DiskUnavailableException if it cannot be created or locked, or its disk is full
   */
  static Optional<DiskDirectoryLock> claim(
      Path directory, UsableSpace space, Consumer<FileChannel> keepOpen)
      throws DiskUnavailableException {
    Path mark = directory.resolve(MARK);
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new DiskUnavailableException("it cannot be created (" + e + ")", e);
    }
    try {
      Files.createFile(mark);
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new DiskUnavailableException("it cannot be written (" + e + ")", e);
    }
    FileChannel channel = null;
    try {
      channel =
          FileChannel.open(
              directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        // The mark stays too, so that this process's other scopes pass the slot over.
        leaveOpen(channel, directory, keepOpen);
        return Optional.empty();
      }
      if (lock == null) {
        unmark(mark, channel);
        return Optional.empty();
      }
      long usable = usableIn(directory, space);
      if (usable < MIN_USABLE_BYTES) {
        throw new DiskUnavailableException(
            "its file system has "
                + usable
                + " bytes usable, fewer than the "
                + MIN_USABLE_BYTES
                + " the disk cache needs to start");
      }
      deleteStaleMarks(directory, Instant.now());
      return Optional.of(new DiskDirectoryLock(directory, channel, lock));
    } catch (IOException | UncheckedIOException e) {
      unmark(mark, channel);
      throw new DiskUnavailableException("it cannot be created or locked (" + e + ")", e);
    } catch (DiskUnavailableException | RuntimeException e) {
      unmark(mark, channel);
      throw e;
    }
  }

  /**
   * Hands {@code channel} to {@code keepOpen} instead of closing it: another scope of this process
   * holds the lock of its file without its mark, and closing the channel would release that scope's
   * lock.
   */
  private static void leaveOpen(
      FileChannel channel, Path directory, Consumer<FileChannel> keepOpen) {
    keepOpen.accept(channel);
    LOG.warn(
        "Disk cache in {}: another scope of this process holds the slot's lock without its mark;"
            + " the slot is taken, and this lock file is left open while this scope lasts, as"
            + " closing it would release that scope's lock",
        directory);
  }

  private static long usableIn(Path directory, UsableSpace space) throws DiskUnavailableException {
    try {
      return space.bytesIn(directory);
    } catch (IOException e) {
      throw new DiskUnavailableException("its free space cannot be read (" + e + ")", e);
    }
  }

  /**
   * Deletes the marks that other processes left in the slot this process now holds and that were
   * last modified before {@link #STALE_MARK_AGE} until {@code now}: those of processes that
   * crashed. A younger mark may be live (its process is about to find the slot taken) and stays.
   * Best effort: a failure leaves the marks, and the slot is held all the same.
   */
  private static void deleteStaleMarks(Path directory, Instant now) {
    Instant staleBefore = now.minus(STALE_MARK_AGE);
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.startsWith(MARK_PREFIX)
            && !name.equals(MARK)
            && Files.getLastModifiedTime(file).toInstant().isBefore(staleBefore)
            && Files.deleteIfExists(file)) {
          LOG.debug("Disk cache in {}: deleted {}, a crashed process's mark", directory, name);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("Disk cache in {}: stale marks not deleted", directory, e);
    }
  }

  /** Releases the lock, closes its file and deletes this process's mark. */
  void release() {
    try {
      lock.release();
    } catch (IOException e) {
      LOG.warn("Disk cache in {}: releasing the lock failed", directory, e);
    }
    unmark(directory.resolve(MARK), channel);
  }

  /** Closes {@code channel} if open, then deletes {@code mark}: in this order, see the notes. */
  private static void unmark(Path mark, FileChannel channel) {
    closeQuietly(channel);
    try {
      Files.deleteIfExists(mark);
    } catch (IOException e) {
      LOG.warn("Disk cache in {}: deleting this process's mark failed", mark.getParent(), e);
    }
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
