package io.seekwell.iceberg;

import io.seekwell.AnnouncedObject;
import io.seekwell.Announcement;
import io.seekwell.S3SeekableInputStreamFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The input files each thread creates with their lengths before it opens any of them: an engine's
 * task naming its files ahead. Spark's Iceberg reader does so for every data and delete file of its
 * task, in the order it reads them. The first open of one of the files announces the group to
 * Seekwell, which then prefetches the next files as each is opened. A file the thread creates after
 * that starts its next group, and the previous group's announcement is closed, so that what was
 * prefetched for files its task never opened is dropped.
 *
 * <p>Each thread has its own group (no lock is shared between threads); a group holds at most
 * {@value #MAX_FILES} files. Thread-safe.
 */
final class TaskGroups implements AutoCloseable {

  static final int MAX_FILES = 10_000;

  private final ThreadLocal<Group> current = new ThreadLocal<>();
  // Every thread's current group, so that closing reaches them all: a thread's own reference stays
  // in its thread-local, emptied.
  private final Set<Group> groups = ConcurrentHashMap.newKeySet();

  /** The files of one group, by the factory that reads them, and their announcements once made. */
  final class Group {
    private final Map<S3SeekableInputStreamFactory, List<AnnouncedObject>> files =
        new LinkedHashMap<>();
    private int size;
    private List<Announcement> announcements; // null until a file of the group is opened
    private boolean begun; // a file of the group was opened: files created later start a new group
    private boolean closed;

    private synchronized boolean add(S3SeekableInputStreamFactory factory, AnnouncedObject file) {
      if (begun || closed || size == MAX_FILES) {
        return false;
      }
      files.computeIfAbsent(factory, ignored -> new ArrayList<>()).add(file);
      size++;
      return true;
    }

    /**
     * A file of the group is about to be opened: the group is begun, and announced if it names more
     * than that file. A file opened as soon as it is created (one at a time, as when reading
     * footers) is a group of one and announces nothing.
     */
    synchronized void opening() {
      boolean first = !begun;
      begun = true;
      if (!first || closed || size < 2) {
        return;
      }
      announcements = new ArrayList<>(files.size());
      files.forEach((factory, objects) -> announcements.add(factory.announce(objects)));
    }

    /** Closes the group's announcements and lets go of its files and their factories. */
    private synchronized void close() {
      closed = true;
      if (announcements != null) {
        announcements.forEach(Announcement::close);
        announcements = List.of();
      }
      files.clear();
      groups.remove(this);
    }
  }

  /**
   * Adds a file created on this thread with its length to the thread's group, or to a new group if
   * a file of the current one was opened (its task has begun reading); returns the group.
   */
  Group join(S3SeekableInputStreamFactory factory, AnnouncedObject file) {
    Group group = current.get();
    if (group != null && group.add(factory, file)) {
      return group;
    }
    if (group != null) {
      group.close();
    }
    Group next = new Group();
    next.add(factory, file);
    groups.add(next);
    current.set(next);
    return next;
  }

  /** Closes every thread's group: their announcements, and their hold on files and factories. */
  @Override
  public void close() {
    for (Group group : groups) {
      group.close();
    }
  }
}
