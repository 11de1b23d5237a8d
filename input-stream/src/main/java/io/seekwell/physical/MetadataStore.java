package io.seekwell.physical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.HeadRequest;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Object metadata by location and SSE-C key ({@link ScopedLocation}), fetched with at most one HEAD
 * per object at a time however many streams ask (single flight), with bounded entries and a time to
 * live. HEADs of different objects run in parallel: there is no lock across objects. Failed HEADs
 * are not cached. Thread-safe.
 *
 * <p>The cache holds the HEADs' futures itself (a synchronous cache of futures, not Caffeine's
 * async cache), and removes a future that fails: the failure goes to the callers only, and nothing
 * is logged on the way (Caffeine's async cache logs every failed load as a warning).
 *
 * <p>{@link BlockStore} calls {@link #remember} and {@link #cached} inside its index's {@code
 * ConcurrentHashMap.compute}: this store must never call back into the block store (it has no
 * listeners).
 */
final class MetadataStore {

  private final ObjectClient client;
  private final Cache<ScopedLocation, CompletableFuture<ObjectMetadata>> cache;

  MetadataStore(ObjectClient client, PhysicalIOConfiguration configuration, Ticker ticker) {
    this.client = client;
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(configuration.metadataCacheSize())
            .expireAfterWrite(configuration.metadataCacheTtl())
            .ticker(ticker::nanos)
            .executor(Runnable::run)
            .build();
  }

  /**
   * The metadata of {@code location}: cached, or being fetched by another caller, or fetched now
   * with a HEAD carrying {@code options}; {@code onHead} is told when a HEAD is sent.
   */
  CompletableFuture<ObjectMetadata> get(
      ObjectLocation location, RequestOptions options, Runnable onHead) {
    ScopedLocation key = ScopedLocation.of(location, options);
    CompletableFuture<ObjectMetadata> sent = new CompletableFuture<>();
    CompletableFuture<ObjectMetadata> cached = cache.asMap().putIfAbsent(key, sent);
    if (cached != null) {
      return cached;
    }
    onHead.run();
    CompletableFuture<ObjectMetadata> head;
    try {
      head = client.headObject(new HeadRequest(location, options));
    } catch (RuntimeException | Error e) {
      head = CompletableFuture.failedFuture(e);
    }
    // Failed or cancelled: the next caller asks again.
    sent.whenComplete(
        (metadata, failure) -> {
          if (failure != null) {
            cache.asMap().remove(key, sent);
          }
        });
    head.whenComplete(
        (metadata, failure) -> {
          if (failure != null) {
            sent.completeExceptionally(failure);
          } else {
            sent.complete(metadata);
          }
        });
    return Futures.cancelThrough(sent, head, metadata -> {});
  }

  /**
   * The metadata of {@code location} as the store has it now: what was cached is forgotten and one
   * HEAD is sent (shared only with callers that asked after this one), whose answer is cached.
   */
  CompletableFuture<ObjectMetadata> refresh(
      ObjectLocation location, RequestOptions options, Runnable onHead) {
    cache.invalidate(ScopedLocation.of(location, options));
    return get(location, options, onHead);
  }

  /** The metadata of {@code location} if it is cached (not merely being fetched). */
  Optional<ObjectMetadata> cached(ScopedLocation location) {
    CompletableFuture<ObjectMetadata> future = cache.getIfPresent(location);
    return future != null && future.isDone() && !future.isCompletedExceptionally()
        ? Optional.of(future.join())
        : Optional.empty();
  }

  /** Caches what a GET response told about {@code location}, unless something is cached. */
  void remember(ScopedLocation location, ObjectMetadata metadata) {
    cache.asMap().putIfAbsent(location, CompletableFuture.completedFuture(metadata));
  }

  /** Forgets {@code location}, so that the next open asks the store again. */
  void invalidate(ScopedLocation location) {
    cache.invalidate(location);
  }

  /** Forgets {@code location} under every SSE-C key; a HEAD in flight is not cached when done. */
  void invalidate(ObjectLocation location) {
    cache.asMap().keySet().removeIf(scoped -> scoped.location().equals(location));
  }

  void clear() {
    cache.invalidateAll();
  }
}
