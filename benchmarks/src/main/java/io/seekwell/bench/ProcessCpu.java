package io.seekwell.bench;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * This JVM's CPU time: all of its threads (the caller's, the clients' event loops and pools, the
 * garbage collector and the compiler), as the operating system counts it. What every benchmark
 * reports as client CPU; the store and the proxy run in other processes and are not in it. On
 * Linux, also the share of it the JIT compilers' threads used.
 */
public final class ProcessCpu {

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** The unit of {@code /proc}'s per-thread times: 100 a second (USER_HZ) on every Linux. */
  private static final long TICKS_PER_SECOND = 100;

  private ProcessCpu() {}

  /** The CPU time this process has used so far, in nanoseconds. */
  public static long nanos() {
    return OS.getProcessCpuTime();
  }

  /**
   * The CPU time HotSpot's compiler threads (C1 and C2) have used so far, in nanoseconds, from
   * {@code /proc/self/task}; -1 where there is no such directory, or where the JVM may end compiler
   * threads (then taking their time out of the sum): a benchmark that reports it runs with {@code
   * -XX:-UseDynamicNumberOfCompilerThreads}.
   */
  public static long compilerNanos() {
    return dynamicCompilerThreads() ? -1 : compilerThreadsNanos();
  }

  /** Whether this JVM starts and ends compiler threads as it goes (HotSpot's default). */
  static boolean dynamicCompilerThreads() {
    try {
      return Boolean.parseBoolean(
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
              .getVMOption("UseDynamicNumberOfCompilerThreads")
              .getValue());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The compiler threads' CPU time now, whether or not any ended; -1 without {@code /proc}. */
  static long compilerThreadsNanos() {
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long ticks = 0;
    try (Stream<Path> threads = Files.list(tasks)) {
      for (Path thread : (Iterable<Path>) threads::iterator) {
        ticks += compilerTicks(readQuietly(thread.resolve("stat")));
      }
    } catch (IOException e) {
      return -1;
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /**
   * The user and system ticks of one {@code /proc/PID/task/TID/stat} line if its thread is a
   * compiler thread ("C1 CompilerThre", "C2 CompilerThre": the kernel keeps 15 characters of a
   * name), else 0.
   */
  static long compilerTicks(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      return 0;
    }
    String name = stat.substring(open + 1, close);
    if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
      return 0;
    }
    // After the name: state (field 3), then fields 4..; utime is field 14 and stime field 15.
    String[] fields = stat.substring(close + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** A thread's stat line; empty if the thread ended meanwhile. */
  private static String readQuietly(Path stat) {
    try {
      return Files.readString(stat);
    } catch (IOException e) {
      return "";
    }
  }
}
