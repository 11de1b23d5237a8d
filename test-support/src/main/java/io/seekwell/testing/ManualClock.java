package io.seekwell.testing;

import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Time that moves only when a test says so: a {@link Ticker}, and a {@link Scheduler} whose tasks
 * run on the test's thread when {@link #advance} passes their time. Thread-safe.
 */
public final class ManualClock implements Ticker, Scheduler {

  private final List<Task> tasks = new ArrayList<>();
  private long now;
  private boolean closed;

  private record Task(long due, long order, Runnable run, CompletableFuture<Void> handle) {}

  private long order;

  @Override
  public synchronized long nanos() {
    return now;
  }

  @Override
  public synchronized Future<?> schedule(Runnable task, long delayNanos) {
    if (closed) {
      throw new RejectedExecutionException("The clock's scheduler is closed");
    }
    CompletableFuture<Void> handle = new CompletableFuture<>();
    tasks.add(new Task(now + Math.max(0, delayNanos), order++, task, handle));
    return handle;
  }

  /** Moves time forward by {@code step}, running every task that falls due, in time order. */
  public void advance(Duration step) {
    long target;
    synchronized (this) {
      target = now + step.toNanos();
    }
    while (true) {
      Task next;
      synchronized (this) {
        next =
            tasks.stream()
                .filter(t -> t.due() <= target)
                .min(Comparator.comparingLong(Task::due).thenComparingLong(Task::order))
                .orElse(null);
        if (next == null) {
          now = target;
          return;
        }
        tasks.remove(next);
        now = Math.max(now, next.due());
      }
      if (!next.handle().isCancelled()) {
        next.run().run();
        next.handle().complete(null);
      }
    }
  }

  /** Tasks scheduled and not yet run. */
  public synchronized int pendingTasks() {
    return (int) tasks.stream().filter(t -> !t.handle().isCancelled()).count();
  }

  @Override
  public synchronized void close() {
    closed = true;
    tasks.clear();
  }
}
