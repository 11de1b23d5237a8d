package io.seekwell.common.object;

import java.util.Objects;

/**
 * Which attempt of a call a request is: the resilience layer sets it on each request it sends, for
 * its decorators below the one that set it (the one that waits for a place among the requests in
 * flight before it sends). Other object clients pass it along and never look into it. Immutable;
 * {@code onSent} is its owner's, who makes it thread-safe.
 *
 * @param name the attempt as the layer's logs name it, such as {@code attempt 2 (HEDGE)}
 * @param deadlineNanos the call's deadline, on the layer's {@link
 *     io.seekwell.common.concurrent.Ticker}: a request still waiting for a place then is not sent
 * @param onSent runs once, on the thread that sends the request, when it is about to be sent (after
 *     any wait for a place); it must not block. It does not run for a request that is never sent
 */
public record RequestAttempt(String name, long deadlineNanos, Runnable onSent) {

  /** Creates an attempt; {@code name} and {@code onSent} must be non-null. */
  public RequestAttempt {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(onSent, "onSent");
  }
}
