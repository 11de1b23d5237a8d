package io.seekwell.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class DaemonPoolsTest {

  @Test
  void tasksOneAtATimeRunOnOneThread() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("one-at-a-time-", 8);
    try {
      for (int i = 0; i < 20; i++) {
        pool.submit(() -> {}).get(10, TimeUnit.SECONDS);
        // The next task comes once the thread is idle again, as a stream's next GET would.
        await(() -> ((IdleFirstQueue) pool.getQueue()).hasIdleThread());
      }
      assertEquals(1, pool.getLargestPoolSize());
      assertEquals(20, pool.getCompletedTaskCount());
    } finally {
      DaemonPools.shutdown(pool);
    }
  }

  @Test
  void busyThreadsGetCompanyUpToTheBoundAndFurtherTasksWait() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("busy-", 3);
    CountDownLatch release = new CountDownLatch(1);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        tasks.add(pool.submit(() -> release.await(10, TimeUnit.SECONDS)));
      }
      await(() -> pool.getActiveCount() == 3);
      assertEquals(3, pool.getPoolSize());
      assertEquals(2, pool.getQueue().size());

      release.countDown();
      for (Future<?> task : tasks) {
        task.get(10, TimeUnit.SECONDS);
      }
      // A task's future completes just before its thread counts it done.
      await(() -> pool.getCompletedTaskCount() == 5);
      assertEquals(3, pool.getLargestPoolSize());
    } finally {
      release.countDown();
      DaemonPools.shutdown(pool);
    }
  }

  @Test
  void manySubmittersRacingForTheLastThreadsHaveEveryTaskRun() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("racing-", 4);
    try {
      List<CompletableFuture<Void>> submitted = new ArrayList<>();
      for (int submitter = 0; submitter < 8; submitter++) {
        submitted.add(
            CompletableFuture.runAsync(
                () -> {
                  for (int i = 0; i < 500; i++) {
                    pool.execute(Thread::onSpinWait);
                  }
                }));
      }
      for (CompletableFuture<Void> done : submitted) {
        done.get(30, TimeUnit.SECONDS);
      }
      // A task refused instead of queued would have failed its submitter above.
      await(() -> pool.getCompletedTaskCount() == 4000);
    } finally {
      DaemonPools.shutdown(pool);
    }
  }

  @Test
  void threadsABurstAddedEndWhileWorkGoesOnOneTaskAtATime() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("burst-", 4);
    pool.setKeepAliveTime(300, TimeUnit.MILLISECONDS);
    CountDownLatch release = new CountDownLatch(1);
    try {
      List<Future<?>> burst = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        burst.add(pool.submit(() -> release.await(10, TimeUnit.SECONDS)));
      }
      await(() -> pool.getActiveCount() == 4);
      release.countDown();
      for (Future<?> task : burst) {
        task.get(10, TimeUnit.SECONDS);
      }
      // A trickle of work, a task every 10 ms, goes to the thread idle shortest: the others see
      // none within their keep-alive and end. Were each task handed to the thread idle longest,
      // every thread would get one every 40 ms and the pool would stay at four.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (pool.getPoolSize() > 1) {
        assertTrue(
            System.nanoTime() < deadline, "the pool kept " + pool.getPoolSize() + " threads");
        pool.submit(() -> {}).get(10, TimeUnit.SECONDS);
        Thread.sleep(10);
      }
      assertEquals(1, pool.getPoolSize());
    } finally {
      release.countDown();
      DaemonPools.shutdown(pool);
    }
  }

  @Test
  void anIdleThreadInterruptedJustAsItIsHandedATaskRunsIt() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("interrupted-", 2);
    try {
      for (int i = 0; i < 2000; i++) {
        await(() -> ((IdleFirstQueue) pool.getQueue()).hasIdleThread() || pool.getPoolSize() == 0);
        // Interrupting idle threads is what the pool does on shutdown and on setting its size.
        pool.setCorePoolSize(0);
        pool.submit(() -> {}).get(10, TimeUnit.SECONDS);
      }
    } finally {
      DaemonPools.shutdown(pool);
    }
  }

  @Test
  void aShutDownPoolRejectsTasks() {
    ThreadPoolExecutor pool = DaemonPools.bounded("shut-", 2);
    DaemonPools.shutdown(pool);

    assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {}));
  }

  @Test
  void tasksStillQueuedAtShutdownAreAbandonedOrCancelledNotLeftPending() throws Exception {
    ThreadPoolExecutor pool = DaemonPools.bounded("abandoned-", 1);
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    pool.execute(
        () -> {
          running.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    assertTrue(running.await(10, TimeUnit.SECONDS));
    List<String> told = new ArrayList<>();
    pool.execute(
        new DaemonPools.Abandonable() {
          @Override
          public void run() {
            told.add("run");
          }

          @Override
          public void abandon() {
            told.add("abandoned");
          }
        });
    Future<?> submitted = pool.submit(() -> told.add("submitted ran"));

    DaemonPools.shutdown(pool);

    assertEquals(List.of("abandoned"), told);
    assertTrue(submitted.isCancelled());
    assertTrue(pool.isTerminated());
  }

  /** Waits for {@code condition}, failing after 10 seconds. */
  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("The condition did not hold within 10 seconds");
      }
      Thread.sleep(1);
    }
  }
}
