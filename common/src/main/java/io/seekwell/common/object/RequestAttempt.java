package io.seekwell.common.object;

/**
 * Which attempt of a call a request is: the resilience layer sets it on each request it sends, for
 * its decorators below the one that set it (the one that waits for a place among the requests in
 * flight before it sends). Other object clients pass it along and never look into it.
 * Implementations are the layer's own and thread-safe.
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
   * Says that the request is about to be sent (after any wait for a place): called once, on the
   * thread that sends it, by the client that sends it; it does not block. Not called for a request
   * that is never sent.
   */
  void sent();
}
