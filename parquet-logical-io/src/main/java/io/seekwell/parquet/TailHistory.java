package io.seekwell.parquet;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.OptionalLong;

/**
 * How many bytes Parquet files need after their last column chunk (page indexes, bloom filters, the
 * footer and its trailer), per parent prefix, so that the next file's open fetches about that tail
 * rather than the configured size, most of which would be the end of the last column's data. Files
 * of one directory are alike. Bounded: the least recently used prefixes are forgotten first.
 * Thread-safe.
 */
final class TailHistory {

  private final Cache<String, Long> byPrefix;

  TailHistory(long maxPrefixes) {
    this.byPrefix = Caffeine.newBuilder().maximumSize(maxPrefixes).executor(Runnable::run).build();
  }

  /**
   * The tail to fetch at the open of {@code objectName}: what the last file parsed under its prefix
   * needed and a quarter more, for tails that grow a little from file to file; empty if none was.
   */
  OptionalLong guess(String objectName) {
    Long needed = byPrefix.getIfPresent(FooterOnlyHistory.prefix(objectName));
    return needed == null ? OptionalLong.empty() : OptionalLong.of(needed + needed / 4);
  }

  /** {@code objectName} holds {@code bytes} after its last column chunk. */
  void needed(String objectName, long bytes) {
    byPrefix.put(FooterOnlyHistory.prefix(objectName), bytes);
  }
}
