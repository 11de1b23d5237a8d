package io.seekwell.logical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which columns readers read, per schema fingerprint ({@link SchemaFingerprint}), for a format
 * plug-in to prefetch them in the next file with that schema.
 *
 * <p>Only recent readers count: the columns learned are those of the last reader of the schema to
 * start reading columns and of the readers still open among the last {@value #READERS_KEPT} to
 * start. Every other closed reader is ignored, whatever it read. So when the queries on a table
 * turn to other columns, the files opened after the new query's first column read are predicted
 * with the new ones (a plug-in checks a stream's first columns against the old ones before it
 * predicts from them). Readers that read no column (footers only) do not count. The least recently
 * used schemas are forgotten first. A reader always predicts its own columns too ({@link
 * Reader#predicted}), even once it is no longer among the recent readers.
 *
 * <p>Concurrency: thread-safe without locks; a plug-in keeps one for all its streams. Each schema's
 * readers are an immutable list replaced by compare-and-set when a reader reads its first column; a
 * reader's columns are a concurrent set.
 */
public final class ColumnHistory {

  /** How many of a schema's readers, most recent first, are looked at for the open ones. */
  static final int READERS_KEPT = 16;

  private final Cache<String, AtomicReference<List<Reader>>> readersBySchema;

  /** Remembers the readers of at most {@code maxSchemas} schemas. */
  public ColumnHistory(long maxSchemas) {
    this.readersBySchema =
        Caffeine.newBuilder().maximumSize(maxSchemas).executor(Runnable::run).build();
  }

  /** A reader for one stream: it records the columns the stream reads until it is closed. */
  public Reader newReader() {
    return new Reader();
  }

  /** The columns of files with schema {@code fingerprint} that recent readers read: a snapshot. */
  Set<String> learned(String fingerprint) {
    AtomicReference<List<Reader>> readers = readersBySchema.getIfPresent(fingerprint);
    if (readers == null) {
      return Set.of();
    }
    List<Reader> recent = readers.get();
    Set<String> columns = new HashSet<>();
    for (int i = 0; i < recent.size(); i++) {
      Reader reader = recent.get(i);
      if (i == 0 || !reader.closed) {
        columns.addAll(reader.columns);
      }
    }
    return Collections.unmodifiableSet(columns);
  }

  private void started(String fingerprint, Reader reader) {
    readersBySchema
        .get(fingerprint, key -> new AtomicReference<>(List.of()))
        .updateAndGet(
            recent -> {
              List<Reader> next = new ArrayList<>(Math.min(recent.size() + 1, READERS_KEPT));
              next.add(reader);
              next.addAll(recent.subList(0, Math.min(recent.size(), READERS_KEPT - 1)));
              return List.copyOf(next);
            });
  }

  /**
   * The columns one stream reads, of one file. Used by the stream's thread; its columns are read by
   * other streams' threads.
   */
  public final class Reader {

    private final Set<String> columns = ConcurrentHashMap.newKeySet();
    private String fingerprint;
    private volatile boolean closed;

    private Reader() {}

    /**
     * Records that the stream read {@code column} of its file, whose schema is {@code fingerprint}.
     */
    public void learn(String fingerprint, String column) {
      if (this.fingerprint == null) {
        this.fingerprint = fingerprint;
        columns.add(column);
        started(fingerprint, this);
      } else if (this.fingerprint.equals(fingerprint)) {
        columns.add(column);
      } else {
        throw new IllegalStateException(
            "A reader of schema " + this.fingerprint + " was told of schema " + fingerprint);
      }
    }

    /** The columns this reader read: a snapshot. */
    public Set<String> own() {
      return Set.copyOf(columns);
    }

    /**
     * The columns to prefetch in this reader's file, whose schema is {@code fingerprint}: those
     * recent readers of the schema read and those this reader read. A snapshot.
     */
    public Set<String> predicted(String fingerprint) {
      Set<String> learned = learned(fingerprint);
      if (columns.isEmpty() || learned.containsAll(columns)) {
        return learned;
      }
      Set<String> union = new HashSet<>(learned);
      union.addAll(columns);
      return Collections.unmodifiableSet(union);
    }

    /** The stream closed: its columns count only while it is the last reader of its schema. */
    public void close() {
      closed = true;
    }
  }
}
