package io.seekwell.iceberg;

import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.object.ObjectMetadata;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An Iceberg {@link InputFile} read through Seekwell. With the length known (from a manifest)
 * streams open with no HEAD, and the files a thread creates so before opening one are announced to
 * Seekwell as its task's files, prefetched ahead as they are opened ({@link TaskGroups}). As
 * Iceberg's own input file does, it asks the store with one HEAD when {@link #exists()} is called,
 * or {@link #getLength()} with no length known, and keeps the answer: never an answer cached for
 * another file object, which could predate a delete or an overwrite by another writer. Thread-safe.
 */
final class SeekwellInputFile implements InputFile {

  private final String location;
  private final S3URI uri;
  private final SeekwellReads reads;
  private final S3SeekableInputStreamFactory factory;
  private final TaskGroups.Group taskGroup;
  private volatile long length;
  private volatile ObjectMetadata asked;

  /**
   * A file of {@code location}; with its {@code length} known (not -1) it joins the task group of
   * the files this thread creates before opening one (see {@link TaskGroups}); {@code factory}
   * reads it.
   */
  SeekwellInputFile(
      String location, long length, SeekwellReads reads, S3SeekableInputStreamFactory factory) {
    this.location = location;
    this.uri = S3URI.parse(location);
    this.length = length;
    this.reads = reads;
    this.factory = factory;
    this.taskGroup = length >= 0 ? reads.joinTaskGroup(uri, length, factory) : null;
  }

  /**
   * The file's length: the one it was created with, or from a HEAD.
   *
   * @throws NotFoundException if the object does not exist
   */
  @Override
  public long getLength() {
    if (length < 0) {
      length = askStore().length();
    }
    return length;
  }

  /**
   * A new stream over the file; the caller closes it.
   *
   * @throws NotFoundException if the object does not exist (when the length was not known, at once;
   *     else at the first read)
   */
  @Override
  public SeekableInputStream newStream() {
    if (taskGroup != null) {
      taskGroup.opening();
    }
    try {
      return new SeekwellInputStream(
          factory.createStream(uri, reads.openInformation(location, length)),
          location,
          reads.metrics());
    } catch (FileNotFoundException e) {
      throw notFound(e);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open " + location, e);
    }
  }

  @Override
  public String location() {
    return location;
  }

  /** Whether the object exists, asked with a HEAD the first time (a yes is kept). */
  @Override
  public boolean exists() {
    try {
      askStore();
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  /** The object's metadata from one HEAD of this file, sent now if none answered before. */
  private ObjectMetadata askStore() {
    ObjectMetadata known = asked;
    if (known == null) {
      try {
        known = factory.freshMetadata(uri, reads.openInformation(location, -1));
      } catch (FileNotFoundException e) {
        throw notFound(e);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot HEAD " + location, e);
      }
      asked = known;
    }
    return known;
  }

  private NotFoundException notFound(FileNotFoundException e) {
    return new NotFoundException(e, "Location does not exist: %s", location);
  }

  @Override
  public String toString() {
    return location;
  }
}
