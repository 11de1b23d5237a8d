package io.seekwell.parquet;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one stream over a small Parquet file teaches the plug-in's {@link FooterOnlyHistory}: once
 * the stream is closed and its footer parsed, in either order, whether its reader read data or only
 * the footer (and how long that was). A stream over a file that is not small, or whose reader read
 * nothing, teaches nothing.
 *
 * <p>Concurrency: {@link #closed} runs on the stream's thread and {@link #parsed} on a parser
 * thread, in either order, once each. Each writes its own volatile field and then increments {@code
 * arrivals}; the call that brings it to two reads both fields (the other call's write came before
 * its increment) and is the only one that reports.
 */
final class FooterOnlyOutcome {

  private final FooterOnlyHistory history;
  private final String file;
  private final long fileLength;
  private final boolean small;
  private final AtomicInteger arrivals = new AtomicInteger();
  private volatile long lowestRead = Long.MAX_VALUE;
  private volatile long footerBytes;

  /**
   * The outcome of a stream over {@code file}, of {@code fileLength} bytes; {@code small} or not.
   */
  FooterOnlyOutcome(FooterOnlyHistory history, String file, long fileLength, boolean small) {
    this.history = history;
    this.file = file;
    this.fileLength = fileLength;
    this.small = small;
  }

  /** The footer was parsed: {@code footerBytes} long with its trailer. */
  void parsed(long footerBytes) {
    this.footerBytes = footerBytes;
    arrived();
  }

  /** The stream was closed; the lowest byte its reader read, or {@code Long.MAX_VALUE} if none. */
  void closed(long lowestRead) {
    this.lowestRead = lowestRead;
    arrived();
  }

  private void arrived() {
    if (arrivals.incrementAndGet() != 2 || !small) {
      return;
    }
    long lowest = lowestRead;
    if (lowest == Long.MAX_VALUE) {
      return; // nothing was read
    }
    if (lowest < fileLength - footerBytes) {
      history.readsData(file);
    } else {
      history.footerOnly(file, footerBytes);
    }
  }
}
