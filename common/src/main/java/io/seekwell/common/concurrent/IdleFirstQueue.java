package io.seekwell.common.concurrent;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The work queue of a {@link DaemonPools#bounded} pool: it hands a task to the idle thread that
 * became idle last, makes the pool start a thread if none is idle and the pool is below its
 * maximum, and otherwise queues the task, for the first thread to be done.
 *
 * <p>Why: a plain {@link ThreadPoolExecutor} with that many core threads starts a new thread for
 * each of its first tasks even when the earlier threads are idle, so a factory that reads one
 * object at a time would start all of its threads. And a queue that hands tasks to the thread idle
 * longest (as {@link java.util.concurrent.LinkedTransferQueue} does) keeps every thread of a burst
 * alive for as long as any work comes: each gets a task before its keep-alive ends, so a pool never
 * shrinks back from its busiest moment. Handing the next task to the thread idle shortest leaves
 * the threads a burst added idle, and they end after their keep-alive.
 *
 * <p><b>Design notes.</b> One lock guards the queued tasks and the stack of idle threads, so that a
 * thread becoming idle (which first looks for a queued task) and a task being queued (which first
 * looks for an idle thread) never miss each other. An idle thread waits in {@link #poll(long,
 * TimeUnit)} (the pool has no core threads, so every thread ends after its keep-alive; {@link
 * #take} waits alike) as a {@link Waiter} on the stack; a task is handed to it by setting its
 * {@code task} and unparking it, under the lock, and a waiter that times out or is interrupted
 * leaves the stack under the lock, so a task handed to it is never lost: it takes it instead.
 * {@link #offer} refusing a task makes the pool start a thread for it; the pool's size is read
 * without this lock held (the pool calls into this queue under its own lock), and only when no
 * thread was idle. If another submitter took the last place meanwhile, the pool rejects the task
 * and {@link #queueUnlessShutDown} queues it, where a busy thread finds it when done.
 */
final class IdleFirstQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {

  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
  private final ArrayDeque<Waiter> idle = new ArrayDeque<>();
  private volatile ThreadPoolExecutor pool;

  /** An idle thread waiting for a task; {@code task} is set once, under the lock. */
  private static final class Waiter {
    final Thread thread = Thread.currentThread();
    volatile Runnable task;
  }

  /** Ties the queue to the one pool it serves; called once, before the pool runs a task. */
  void serve(ThreadPoolExecutor pool) {
    this.pool = pool;
  }

  /** Whether a thread of the pool is idle, waiting for a task. */
  boolean hasIdleThread() {
    lock.lock();
    try {
      return !idle.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean offer(Runnable task) {
    if (task == null) {
      throw new NullPointerException("task");
    }
    if (handToIdle(task)) {
      return true;
    }
    ThreadPoolExecutor served = pool;
    if (served.getPoolSize() < served.getMaximumPoolSize()) {
      return false;
    }
    put(task);
    return true;
  }

  /** Hands {@code task} to the thread idle shortest, or queues it if none is idle. */
  @Override
  public void put(Runnable task) {
    if (task == null) {
      throw new NullPointerException("task");
    }
    lock.lock();
    try {
      if (!handToIdleLocked(task)) {
        tasks.addLast(task);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Hands {@code task} to the thread idle shortest, or queues it; never refuses it. */
  @Override
  public boolean add(Runnable task) {
    put(task);
    return true;
  }

  @Override
  public boolean offer(Runnable task, long timeout, TimeUnit unit) {
    put(task);
    return true;
  }

  private boolean handToIdle(Runnable task) {
    lock.lock();
    try {
      return handToIdleLocked(task);
    } finally {
      lock.unlock();
    }
  }

  private boolean handToIdleLocked(Runnable task) {
    Waiter waiter = idle.pollFirst();
    if (waiter == null) {
      return false;
    }
    waiter.task = task;
    LockSupport.unpark(waiter.thread);
    return true;
  }

  @Override
  public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
    return await(System.nanoTime() + unit.toNanos(timeout), true);
  }

  @Override
  public Runnable take() throws InterruptedException {
    return await(0, false);
  }

  private Runnable await(long deadline, boolean timed) throws InterruptedException {
    Waiter waiter = new Waiter();
    lock.lock();
    try {
      Runnable queued = tasks.pollFirst();
      if (queued != null) {
        return queued;
      }
      idle.addFirst(waiter);
    } finally {
      lock.unlock();
    }
    while (true) {
      Runnable task = waiter.task;
      if (task != null) {
        return task;
      }
      long left = timed ? deadline - System.nanoTime() : Long.MAX_VALUE;
      boolean interrupted = Thread.interrupted();
      if (left <= 0 || interrupted) {
        lock.lock();
        try {
          // Handed a task before leaving the stack: take it (and keep the interrupt for the pool).
          if (waiter.task != null) {
            if (interrupted) {
              Thread.currentThread().interrupt();
            }
            return waiter.task;
          }
          idle.remove(waiter);
        } finally {
          lock.unlock();
        }
        if (interrupted) {
          throw new InterruptedException();
        }
        return null;
      }
      if (timed) {
        LockSupport.parkNanos(this, left);
      } else {
        LockSupport.park(this);
      }
    }
  }

  @Override
  public Runnable poll() {
    lock.lock();
    try {
      return tasks.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Runnable peek() {
    lock.lock();
    try {
      return tasks.peekFirst();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int size() {
    lock.lock();
    try {
      return tasks.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean remove(Object task) {
    lock.lock();
    try {
      return tasks.remove(task);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int remainingCapacity() {
    return Integer.MAX_VALUE;
  }

  @Override
  public int drainTo(Collection<? super Runnable> into) {
    return drainTo(into, Integer.MAX_VALUE);
  }

  @Override
  public int drainTo(Collection<? super Runnable> into, int max) {
    Objects.requireNonNull(into, "into");
    if (into == this) {
      throw new IllegalArgumentException("A queue cannot be drained into itself");
    }
    if (max <= 0) {
      return 0;
    }
    List<Runnable> drained;
    lock.lock();
    try {
      int count = Math.min(max, tasks.size());
      drained = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        drained.add(tasks.pollFirst());
      }
    } finally {
      lock.unlock();
    }
    into.addAll(drained);
    return drained.size();
  }

  /** Iterates over a copy of the queued tasks; its {@code remove} takes a task out of the queue. */
  @Override
  public Iterator<Runnable> iterator() {
    List<Runnable> copy;
    lock.lock();
    try {
      copy = List.copyOf(tasks);
    } finally {
      lock.unlock();
    }
    return new Iterator<>() {
      private int next;
      private Runnable last;

      @Override
      public boolean hasNext() {
        return next < copy.size();
      }

      @Override
      public Runnable next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        last = copy.get(next++);
        return last;
      }

      @Override
      public void remove() {
        if (last == null) {
          throw new IllegalStateException("next() first");
        }
        IdleFirstQueue.this.remove(last);
        last = null;
      }
    };
  }

  /**
   * Queues a task the pool refused because its last thread place was just taken; rejects it if the
   * pool is shut down, also when the shutdown came while it was being queued.
   */
  RejectedExecutionHandler queueUnlessShutDown() {
    return (task, executor) -> {
      if (!executor.isShutdown()) {
        put(task);
        if (!executor.isShutdown() || !remove(task)) {
          // Should every thread have ended since the pool refused it, a no-op starts one.
          if (executor.getPoolSize() == 0) {
            executor.execute(() -> {});
          }
          return;
        }
      }
      throw new RejectedExecutionException("The pool is shut down");
    };
  }
}
