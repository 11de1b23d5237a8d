package io.seekwell.common.object;

import java.util.concurrent.CompletableFuture;

/**
 * The only way Seekwell talks to an object store. Implementations must be thread-safe: one client
 * serves every stream of a factory on many threads.
 *
 * <p>The interface holds only what every store can do: a HEAD and a GET of a closed byte range.
 * Failures complete the future exceptionally with an {@link java.io.IOException}: {@link
 * java.io.FileNotFoundException} for a missing object, {@link java.nio.file.AccessDeniedException}
 * when access is refused, {@link ObjectChangedException} when the ETag no longer matches, {@link
 * java.io.EOFException} for a range that starts past the end, and {@link ObjectStoreException} for
 * everything else.
 *
 * <p>{@link #close()} releases the client's threads and connections; whether it also closes an SDK
 * client handed to it is up to the implementation and documented there.
 */
public interface ObjectClient extends AutoCloseable {

  /** Fetches the object's metadata. */
  CompletableFuture<ObjectMetadata> headObject(HeadRequest request);

  /**
   * Starts fetching the request's range. The future completes when the store has answered; the
   * content then streams the bytes as they arrive. The caller must close the content. Cancelling
   * the future abandons the request: an implementation should abort its exchange, and must close
   * content that arrives anyway. Closing the content from another thread while a read of it blocks
   * must end that read with an {@link java.io.IOException}.
   */
  CompletableFuture<ObjectContent> getObject(GetRequest request);

  /**
   * Whether cancelling a request's future ends its exchange and frees its connection at once, as an
   * asynchronous HTTP client does. A client whose calls block cannot stop a call from another
   * thread: it answers false, and ends each call by itself no later than the request's {@link
   * RequestOptions#headersTimeout() headers timeout}. Callers then count the connection as in use
   * until the call's future completes, and do not cancel it.
   */
  default boolean freesConnectionOnCancel() {
    return true;
  }

  @Override
  void close();
}
