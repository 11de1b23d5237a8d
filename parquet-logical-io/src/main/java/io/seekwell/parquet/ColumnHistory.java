package io.seekwell.parquet;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which columns readers read, per schema fingerprint. Bounded: the least recently used schemas are
 * forgotten first. Thread-safe.
 */
final class ColumnHistory {

  private final Cache<String, Set<String>> columnsBySchema;

  ColumnHistory(long maxSchemas) {
    this.columnsBySchema =
        Caffeine.newBuilder().maximumSize(maxSchemas).executor(Runnable::run).build();
  }

  /** Records that a reader read {@code column} of a file with schema {@code fingerprint}. */
  void learn(String fingerprint, String column) {
    columnsBySchema.get(fingerprint, key -> ConcurrentHashMap.newKeySet()).add(column);
  }

  /**
   * The columns read so far of files with schema {@code fingerprint}: a read-only view that grows
   * as readers learn more.
   */
  Set<String> learned(String fingerprint) {
    Set<String> columns = columnsBySchema.getIfPresent(fingerprint);
    return columns == null ? Set.of() : Collections.unmodifiableSet(columns);
  }
}
