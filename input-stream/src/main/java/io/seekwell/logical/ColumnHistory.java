package io.seekwell.logical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which columns readers read, per schema fingerprint ({@link SchemaFingerprint}), for a format
 * plug-in to prefetch them in the next file with that schema. Bounded: the least recently used
 * schemas are forgotten first. Thread-safe; a plug-in keeps one for all its streams.
 */
public final class ColumnHistory {

  private final Cache<String, Set<String>> columnsBySchema;

  /** Remembers the columns of at most {@code maxSchemas} schemas. */
  public ColumnHistory(long maxSchemas) {
    this.columnsBySchema =
        Caffeine.newBuilder().maximumSize(maxSchemas).executor(Runnable::run).build();
  }

  /** Records that a reader read {@code column} of a file with schema {@code fingerprint}. */
  public void learn(String fingerprint, String column) {
    columnsBySchema.get(fingerprint, key -> ConcurrentHashMap.newKeySet()).add(column);
  }

  /**
   * The columns read so far of files with schema {@code fingerprint}: a read-only view that grows
   * as readers learn more.
   */
  public Set<String> learned(String fingerprint) {
    Set<String> columns = columnsBySchema.getIfPresent(fingerprint);
    return columns == null ? Set.of() : Collections.unmodifiableSet(columns);
  }
}
