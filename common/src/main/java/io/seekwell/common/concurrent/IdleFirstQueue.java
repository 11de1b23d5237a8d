package io.seekwell.common.concurrent;

import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The work queue of a {@link DaemonPools#bounded} pool: it hands a task to an idle thread if one is
 * waiting, makes the pool start a thread if none is and the pool is below its maximum, and queues
 * the task only when every thread the pool may have is busy. A plain {@link ThreadPoolExecutor}
 * with that many core threads starts a new thread for each of its first tasks even when the earlier
 * threads are idle, so a factory that reads one object at a time would start all of its threads,
 * each costing a stack and a system call, and end them again when it closes.
 *
 * <p><b>Design notes.</b> Idle pool threads wait in {@link #poll(long,
 * java.util.concurrent.TimeUnit)} (the pool has no core threads, so every thread ends after its
 * keep-alive), which is what {@link #tryTransfer} hands a task to. {@link #offer} refusing a task
 * makes the pool start a thread for it; if another submitter took the last place first, the pool
 * rejects it and {@link #queueUnlessShutDown} queues it, where a busy thread finds it when done.
 * The pool's size is read under the pool's own lock, and only when no thread was idle.
 */
final class IdleFirstQueue extends LinkedTransferQueue<Runnable> {

  private static final long serialVersionUID = 1L;

  private transient volatile ThreadPoolExecutor pool;

  /** Ties the queue to the one pool it serves; called once, before the pool runs a task. */
  void serve(ThreadPoolExecutor pool) {
    this.pool = pool;
  }

  @Override
  public boolean offer(Runnable task) {
    if (tryTransfer(task)) {
      return true;
    }
    ThreadPoolExecutor served = pool;
    if (served.getPoolSize() < served.getMaximumPoolSize()) {
      return false;
    }
    return super.offer(task);
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
          return;
        }
      }
      throw new RejectedExecutionException("The pool is shut down");
    };
  }
}
