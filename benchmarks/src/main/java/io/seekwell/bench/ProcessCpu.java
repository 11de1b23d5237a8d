package io.seekwell.bench;

import java.lang.management.ManagementFactory;

/**
 * This JVM's CPU time: all of its threads (the caller's, the clients' event loops and pools, the
 * garbage collector and the compiler), as the operating system counts it. What every benchmark
 * reports as client CPU; the store and the proxy run in other processes and are not in it.
 */
public final class ProcessCpu {

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private ProcessCpu() {}

  /** The CPU time this process has used so far, in nanoseconds. */
  public static long nanos() {
    return OS.getProcessCpuTime();
  }
}
