package io.seekwell.bench.workloads;

import io.seekwell.bench.Directories;
import io.seekwell.bench.ProcessCpu;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.ReadPath;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.common.metrics.Metric;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * One cold measurement: a workload on a read path opened afresh (its clients counted by a {@link
 * RequestCounter}), timed, with its requests, bytes and peak heap. What the read and the fault
 * benchmarks measure.
 */
public final class ColdRead {

  /**
   * The suffix of a Seekwell path measured with its disk tier on and cold: a directory of its own,
   * emptied before every iteration, so that every object is fetched and written.
   */
  public static final String DISK = "@disk";

  private static final Path DISK_DIRECTORY = Path.of("benchmarks/target/disk-tier-cold");

  private ColdRead() {}

  /**
   * {@code workload} on a fresh {@code pathName} ({@link Peer#named}, {@code PATH@disk} with its
   * disk tier on and cold) reading from {@code endpoint}, with the Seekwell settings {@code
   * seekwell}; timed: the workload; not timed: building and closing its clients. Its CPU is counted
   * from opening the clients to closing them, as a new job pays it.
   */
  public static Sample measure(
      Workload workload,
      String pathName,
      Dataset data,
      URI endpoint,
      StaticCredentialsProvider credentials,
      Map<String, String> seekwell)
      throws IOException {
    RequestCounter counter = new RequestCounter();
    List<MemoryPoolMXBean> heap =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();
    long checksum;
    double seconds;
    long hedges;
    Map<String, String> settings = seekwell;
    if (pathName.endsWith(DISK)) {
      settings = new HashMap<>(seekwell);
      settings.put(SeekwellSettings.DISK_DIRECTORY, DISK_DIRECTORY.toString());
    }
    Path previousTier = emptyDiskCache(settings);
    System.gc();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    long cpuStart = ProcessCpu.nanos();
    try (ReadPath path = Peer.named(pathName).open(endpoint, credentials, counter, settings)) {
      long start = System.nanoTime();
      checksum = workload.run(path, data);
      seconds = (System.nanoTime() - start) / 1e9;
      hedges = path.seekwellMetrics().map(metrics -> metrics.get(Metric.HEDGED_GETS)).orElse(-1L);
      if (pathName.endsWith(DISK)) {
        path.seekwellMetrics()
            .ifPresent(metrics -> SeekwellSettings.requireDiskTier(pathName, metrics));
      }
    }
    double cpuSeconds = (ProcessCpu.nanos() - cpuStart) / 1e9;
    if (previousTier != null) {
      Directories.delete(previousTier);
    }
    long peak = heap.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    return new Sample(
        seconds,
        cpuSeconds,
        counter.gets(),
        counter.heads(),
        counter.bytes(),
        peak,
        checksum,
        hedges);
  }

  /**
   * Empties the disk tier's directory if the Seekwell settings name one: every iteration is cold,
   * on disk too. The last iteration's tier is moved aside ({@link Directories#moveAside}).
   *
   * @return where it was moved, for the caller to delete once the iteration is measured, or null
   */
  private static Path emptyDiskCache(Map<String, String> seekwell) throws IOException {
    String directory = seekwell.get(SeekwellSettings.DISK_DIRECTORY);
    return directory == null ? null : Directories.moveAside(Path.of(directory));
  }
}
