package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.physical.FetchPurpose;
import io.seekwell.physical.ObjectReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Objects a caller announced it will read, in this order ({@link
 * S3SeekableInputStreamFactory#announce}). When a stream opens one of them, the next ones are
 * prefetched: small objects whole, larger ones their tail (where columnar formats keep their
 * footer), as long as at most {@code logicalio.announced.prefetch.files} objects and {@code
 * logicalio.announced.prefetch.size} bytes are prefetched ahead of the last one opened; the window
 * slides on as objects are opened. Prefetching yields to the memory bound: it stops where memory
 * cannot be found without evicting bytes readers still want.
 *
 * <p>{@link #close() Closing} it (a task finished or cancelled, a limit reached) releases what was
 * prefetched for objects no stream opened: their bytes leave the cache and count as {@code
 * PREFETCHED_BYTES_UNUSED}. Thread-safe; its own lock guards its window, no other.
 */
public final class Announcement implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Announcement.class);

  /** One announced object: where it stands in the order, and what was prefetched for it. */
  static final class Entry {
    private final Announcement owner;
    private final int index;
    private final AnnouncedObject object;
    private ObjectReader prefetching; // guarded by owner
    private long prefetchedBytes; // guarded by owner
    private boolean opened; // guarded by owner

    private Entry(Announcement owner, int index, AnnouncedObject object) {
      this.owner = owner;
      this.index = index;
      this.object = object;
    }

    /** A stream has opened the object (and holds it now): prefetch the next ones. */
    void opened() {
      owner.opened(this);
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private final Map<S3URI, Entry> index;
  private final Function<AnnouncedObject, ObjectReader> opener;
  private final AnnouncementSettings settings;
  private boolean closed; // guarded by this

  /**
   * Announces {@code objects}; {@code index} is the factory's lookup of announced objects by URI,
   * {@code opener} opens a reader for an object's prefetch.
   */
  Announcement(
      List<AnnouncedObject> objects,
      Map<S3URI, Entry> index,
      Function<AnnouncedObject, ObjectReader> opener,
      AnnouncementSettings settings) {
    this.index = index;
    this.opener = opener;
    this.settings = settings;
    for (AnnouncedObject object : objects) {
      Entry entry = new Entry(this, entries.size(), object);
      entries.add(entry);
      index.put(object.uri(), entry);
    }
  }

  /** How many objects were announced. */
  public int size() {
    return entries.size();
  }

  private synchronized void opened(Entry entry) {
    if (closed || entry.opened) {
      return;
    }
    entry.opened = true;
    if (entry.prefetching != null) {
      // The stream holds the object now; its blocks stay shared with it.
      entry.prefetching.close();
      entry.prefetching = null;
    }
    int files = 0;
    long bytes = 0;
    for (int i = entry.index + 1; i < entries.size(); i++) {
      Entry next = entries.get(i);
      if (next.opened) {
        continue;
      }
      long wanted = next.prefetching != null ? next.prefetchedBytes : rangeOf(next).length();
      if (files + 1 > settings.maxFiles() || bytes + wanted > settings.maxBytes()) {
        return;
      }
      if (next.prefetching == null && !prefetch(next)) {
        return; // no memory: the window yields to the memory bound
      }
      files++;
      bytes += wanted;
    }
  }

  /**
   * The bytes to prefetch of {@code entry}: all of a small object, else its tail (all of it, if the
   * tail is longer than the object).
   */
  private ByteRange rangeOf(Entry entry) {
    long length = entry.object.length();
    long size =
        length <= settings.smallObjectSize() ? length : Math.min(length, settings.tailSize());
    return ByteRange.ofLength(length - size, size);
  }

  private boolean prefetch(Entry entry) {
    if (entry.object.length() == 0) {
      return true;
    }
    ByteRange range = rangeOf(entry);
    ObjectReader reader = opener.apply(entry.object);
    try {
      if (!reader.prefetch(range, FetchPurpose.AHEAD)) {
        reader.close();
        return false;
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug(
          "Announced {}: prefetch of {} not started: {}", entry.object.uri(), range, e.toString());
      reader.close();
      return false;
    }
    entry.prefetching = reader;
    entry.prefetchedBytes = range.length();
    return true;
  }

  /**
   * Forgets the announcement: objects no stream opened are no longer prefetched for, and what was
   * prefetched for them leaves the cache, counted as unused.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Entry entry : entries) {
      index.remove(entry.object.uri(), entry);
      if (entry.prefetching != null) {
        entry.prefetching.discard();
        entry.prefetching = null;
      }
    }
  }
}
