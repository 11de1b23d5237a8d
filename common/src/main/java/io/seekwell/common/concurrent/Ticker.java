package io.seekwell.common.concurrent;

/**
 * A source of nanosecond time for measuring elapsed time, so that tests can move time forward
 * without sleeping. Implementations are thread-safe.
 */
@FunctionalInterface
public interface Ticker {

  /** Nanoseconds since an arbitrary origin; only differences mean anything. */
  long nanos();

  /** The JVM's {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
