package io.seekwell.common.object;

/**
 * Which attempt of a call a request is: the resilience layer sets it on each request it sends, for
 * its decorators below the one that set it (the one that waits for a place among the requests in
 * flight before it sends). Other object clients pass it along and never look into it.
 * Implementations are the layer's own and thread-safe; they are not values (no equals or hashCode
 * of their own), and {@link RequestOptions} leaves them out of its own.
 */
public interface RequestAttempt {

  /** The attempt as the layer's logs name it, such as {@code attempt 2 (HEDGE)}. */
  String name();

  /**
   * The call's deadline, on the layer's {@link io.seekwell.common.concurrent.Ticker}: a request
   * still waiting for a place then is not sent.
   */
  long deadlineNanos();

  /**
   * Asks, just before the request is sent (after any wait for a place), whether it may be: false if
   * the attempt was given up meanwhile, and then the request must not be sent. Called on the thread
   * that sends, by the client that sends, once for each request that carries it (an attempt that
   * several requests carry in turn, such as a call's tries, hears once per request); a second call
   * for the same request changes nothing. It does not block, and is not called for a request that
   * is never sent.
   *
   * @return whether to send the request
   */
  boolean sent();
}
