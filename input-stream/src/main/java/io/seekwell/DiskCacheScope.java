package io.seekwell;

import io.seekwell.physical.disk.DiskCaches;

/**
 * Where stream factories share disk caches: the factories given one scope that name one disk cache
 * directory ({@code physicalio.disk.cache.dir}) share one cache in one slot of it, and must set the
 * same {@code physicalio.disk.cache.max.size} and {@code max.slots}. Each factory of a scope counts
 * as a user of its cache; the last one to close closes the cache and frees its slot. Factories of
 * other scopes, and of other processes, take other slots ({@code physicalio.disk.cache.max.slots});
 * a factory given no scope has one of its own. A factory that cannot use its directory reads
 * without the disk cache; the first such factory of a scope logs a warning, later ones of that
 * scope log at debug level (until a cache opens there again), so that factories given no scope each
 * warn.
 *
 * <p>The caller owns the scope and may hand it to any number of factories, on any threads; the
 * factories own the caches. A scope holds no cache, thread nor file while none of its factories is
 * open, so it has nothing to close and may be dropped at any time. Thread-safe.
 */
public final class DiskCacheScope {

  private final DiskCaches caches = new DiskCaches();

  /** A scope in which no factory has a disk cache open yet. */
  public DiskCacheScope() {
    // Caches open as the factories given the scope start.
  }

  /** The caches open in this scope, by directory. */
  DiskCaches caches() {
    return caches;
  }
}
