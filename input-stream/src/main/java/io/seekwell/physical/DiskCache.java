package io.seekwell.physical;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The disk cache in one claimed directory, which every factory of the process that names the
 * directory uses (through its own {@link DiskTier}): the objects it holds, its reader, writer,
 * eviction and breaker. Opened by {@link DiskCaches}, which counts its users and closes it when the
 * last one leaves. Thread-safe as its parts are; it adds no state of its own beyond them.
 */
final class DiskCache {

  private final DiskDirectory directory;
  private final DiskObjects objects;
  private final DiskReader reader;
  private final DiskWriter writer;
  private final long maxBytes;

  private DiskCache(DiskDirectory directory, long maxBytes, long maxQueuedBytes, LongSupplier nanos)
      throws IOException {
    this.directory = directory;
    this.maxBytes = maxBytes;
    this.objects = new DiskObjects(directory, directory.recover());
    DiskBreaker breaker = new DiskBreaker(directory.path(), nanos);
    this.reader = new DiskReader(objects, breaker);
    DiskEviction eviction = new DiskEviction(objects, reader, breaker, maxBytes);
    this.writer = new DiskWriter(directory, objects, eviction, breaker, maxQueuedBytes);
  }

  /**
   * Opens the cache in {@code path}: claims it, probes it and lists what an earlier run left; on
   * failure, releases it. It keeps within {@code maxBytes}, and at most {@code maxQueuedBytes} of
   * blocks wait to be written at once.
   *
   * @throws DiskUnavailableException if the directory cannot be used
   */
  static DiskCache open(
      Path path, long maxBytes, long maxQueuedBytes, LongSupplier nanos, UsableSpace space)
      throws DiskUnavailableException {
    DiskDirectory directory = DiskDirectory.open(path, space);
    try {
      return new DiskCache(directory, maxBytes, maxQueuedBytes, nanos);
    } catch (IOException | UncheckedIOException e) {
      // Claimed and probed: only the listing (recovery) can fail here.
      directory.release();
      throw new DiskUnavailableException("it cannot be listed (" + e + ")", e);
    } catch (RuntimeException e) {
      directory.release();
      throw e;
    }
  }

  long maxBytes() {
    return maxBytes;
  }

  Path path() {
    return directory.path();
  }

  DiskReader reader() {
    return reader;
  }

  DiskWriter writer() {
    return writer;
  }

  /**
   * Lets the writer finish (see {@link DiskWriter#close}), unmaps every file and releases the
   * directory.
   */
  void close() {
    writer.close();
    objects.all().forEach(DiskObject::unmap);
    directory.release();
  }
}
