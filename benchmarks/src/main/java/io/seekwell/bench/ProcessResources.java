package io.seekwell.bench;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What this JVM holds of the machine now, as the soak benchmark records it every interval, and the
 * CPU time all of its threads have used so far ({@link ProcessCpu}, taken before the collection).
 */
public record ProcessResources(
    long heapBytes,
    long directBytes,
    long residentBytes,
    int threads,
    long openFiles,
    long cpuNanos) {

  private static final long KIB = 1024;

  /**
   * Now; the heap as a full collection left it, so that it is what was reachable rather than what
   * the collector had not looked at yet or the readers allocated since.
   */
  public static ProcessResources sample() throws IOException {
    long cpu = ProcessCpu.nanos();
    System.gc();
    long heap =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null)
            .mapToLong(pool -> pool.getCollectionUsage().getUsed())
            .sum();
    long direct =
        ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .mapToLong(BufferPoolMXBean::getMemoryUsed)
            .sum();
    return new ProcessResources(
        heap,
        direct,
        readResidentBytes(),
        ManagementFactory.getThreadMXBean().getThreadCount(),
        countOpenFiles(),
        cpu);
  }

  /** This JVM's resident set; -1 where there is none. */
  private static long readResidentBytes() throws IOException {
    return residentBytes(Path.of("/proc/self/status"));
  }

  /** The resident set of the process {@code pid}; -1 where there is none. */
  public static long residentBytes(long pid) throws IOException {
    return residentBytes(Path.of("/proc", Long.toString(pid), "status"));
  }

  /** {@code VmRSS} of a {@code /proc/<pid>/status} file; -1 where there is none. */
  private static long residentBytes(Path status) throws IOException {
    if (!Files.exists(status)) {
      return -1;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(status);
    } catch (NoSuchFileException e) {
      return -1; // the process ended
    }
    for (String line : lines) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * KIB;
      }
    }
    return -1;
  }

  /** The file descriptors open ({@code /proc/self/fd}), sockets included; -1 where unknown. */
  private static long countOpenFiles() throws IOException {
    Path descriptors = Path.of("/proc/self/fd");
    if (!Files.isDirectory(descriptors)) {
      return -1;
    }
    try (Stream<Path> open = Files.list(descriptors)) {
      return open.count();
    }
  }
}
