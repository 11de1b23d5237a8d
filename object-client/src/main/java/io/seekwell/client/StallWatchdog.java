package io.seekwell.client;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds GET bodies that stopped delivering bytes and cuts them, so that their reader resumes on a
 * new connection instead of waiting for the socket's own timeout. A body counts as stalled when a
 * read of it has been blocked for longer than {@link ResponseTimes#stallDeadlineNanos()} without a
 * byte; a reader that merely stopped reading is never cut.
 *
 * <p>Design notes. Readers tell a {@link Watch} when a read starts and ends (two volatile writes,
 * no lock). The watchdog checks every watch from one scheduled task, which runs every half stall
 * floor while any body is open and is not scheduled at all otherwise, so an idle client has no
 * timer. Cutting a body means closing it from the watchdog's thread, which the {@code ObjectClient}
 * contract requires to end a blocked read with an {@code IOException}; the reader then sees {@link
 * Watch#wasCut()} and treats the failure as a stall. Thread-safe.
 */
final class StallWatchdog {

  private static final Logger LOG = LoggerFactory.getLogger(StallWatchdog.class);

  private final Scheduler scheduler;
  private final Ticker ticker;
  private final ResponseTimes times;
  private final long sweepIntervalNanos;
  private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean sweepScheduled = new AtomicBoolean();

  StallWatchdog(
      Scheduler scheduler, Ticker ticker, ResponseTimes times, ObjectClientConfiguration config) {
    this.scheduler = scheduler;
    this.ticker = ticker;
    this.times = times;
    this.sweepIntervalNanos = Math.max(1, config.stallFloor().toNanos() / 2);
  }

  /** Starts watching a body; {@code cut} closes it. The caller ends the watch when done. */
  Watch watch(Runnable cut) {
    Watch watch = new Watch(cut);
    watches.add(watch);
    scheduleSweep();
    return watch;
  }

  private void scheduleSweep() {
    if (!watches.isEmpty() && sweepScheduled.compareAndSet(false, true)) {
      try {
        scheduler.schedule(this::sweep, sweepIntervalNanos);
      } catch (RejectedExecutionException closed) {
        // Closing: the bodies still open end with their client.
        LOG.debug("stall sweep not scheduled, the client is closing: {}", closed.toString());
        sweepScheduled.set(false);
      }
    }
  }

  /** Cuts every body whose current read has waited longer than the stall deadline. */
  void sweep() {
    sweepScheduled.set(false);
    long now = ticker.nanos();
    long deadline = times.stallDeadlineNanos();
    for (Watch watch : watches) {
      watch.cutIfStalled(now, deadline);
    }
    scheduleSweep();
  }

  /** One body's reads, as the watchdog sees them. Written by its reader, read by the watchdog. */
  final class Watch {
    private final Runnable cut;
    private volatile long readSince = -1;
    private volatile boolean wasCut;

    private Watch(Runnable cut) {
      this.cut = cut;
    }

    /** A read starts (or bytes arrived and the next read starts). */
    void reading() {
      readSince = ticker.nanos();
    }

    /** The read returned. */
    void idle() {
      readSince = -1;
    }

    /** Whether the watchdog cut the body because it stalled. */
    boolean wasCut() {
      return wasCut;
    }

    /** The body is done with; stop watching it. */
    void end() {
      watches.remove(this);
    }

    private void cutIfStalled(long now, long deadline) {
      long since = readSince;
      if (since >= 0 && now - since > deadline && !wasCut) {
        wasCut = true;
        watches.remove(this);
        cut.run();
      }
    }
  }
}
