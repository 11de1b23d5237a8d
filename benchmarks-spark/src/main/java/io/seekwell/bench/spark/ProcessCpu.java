package io.seekwell.bench.spark;

import java.time.Duration;

/**
 * CPU time the driver's JVM and the executor JVMs its Spark workers launched (its descendant
 * processes) have used so far, as the operating system counts it: every thread, Seekwell's and the
 * SDK's included, not only the tasks'.
 */
record ProcessCpu(long driverMillis, long executorMillis) {

  /** The CPU time used so far. */
  static ProcessCpu now() {
    long executors =
        ProcessHandle.current()
            .descendants()
            .mapToLong(
                process -> process.info().totalCpuDuration().orElse(Duration.ZERO).toMillis())
            .sum();
    return new ProcessCpu(
        ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toMillis(),
        executors);
  }

  /** The CPU time used since {@code earlier}. */
  ProcessCpu since(ProcessCpu earlier) {
    return new ProcessCpu(
        driverMillis - earlier.driverMillis, executorMillis - earlier.executorMillis);
  }
}
