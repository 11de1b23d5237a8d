package io.seekwell.bench.workloads;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.bench.Directories;
import io.seekwell.bench.ProcessCpu;
import io.seekwell.bench.paths.AalPath;
import io.seekwell.bench.paths.IcebergPath;
import io.seekwell.bench.paths.ReadPath;
import io.seekwell.bench.paths.S3aPath;
import io.seekwell.bench.paths.SeekwellPath;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.store.Clients;
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
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * One cold measurement: a workload on a read path opened afresh (its clients counted by a {@link
 * RequestCounter}), timed, with its requests, bytes and peak heap; and the read paths by name. What
 * the main and the fault benchmark measure, and how the request-rate benchmark opens its paths.
 */
public final class ColdRead {

  /**
   * The suffix of a Seekwell path measured with its disk tier on and cold: a directory of its own,
   * emptied before every iteration, so that every object is fetched and written.
   */
  public static final String DISK = "@disk";

  /**
   * S3A's classic stream with ORC's reader merging reads less than 4 MiB apart ({@code
   * orc.min.disk.seek.size}): measured in the ORC workloads only, where it differs from {@code
   * s3a-classic}.
   */
  public static final String ORC_TUNED = "s3a-classic-orc-tuned";

  private static final Path DISK_DIRECTORY = Path.of("benchmarks/target/disk-tier-cold");

  private ColdRead() {}

  /** The read path {@code path} measures: its name without a {@code @} suffix. */
  public static String readPathOf(String path) {
    String name = path.trim();
    int at = name.indexOf('@');
    return at < 0 ? name : name.substring(0, at);
  }

  /**
   * {@code workload} on a fresh {@code pathName} reading from {@code endpoint}, with the Seekwell
   * settings {@code seekwell}; timed: the workload; not timed: building and closing its clients.
   * Its CPU is counted from opening the clients to closing them, as a new job pays it.
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
    emptyDiskCache(settings);
    System.gc();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    long cpuStart = ProcessCpu.nanos();
    try (ReadPath path = open(pathName, endpoint, credentials, counter, settings)) {
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
   * on disk too.
   */
  private static void emptyDiskCache(Map<String, String> seekwell) throws IOException {
    String directory = seekwell.get(SeekwellSettings.DISK_DIRECTORY);
    if (directory != null) {
      Directories.delete(Path.of(directory));
    }
  }

  /**
   * A fresh read path whose clients {@code counter} counts; closing it closes them: {@code
   * seekwell}, the same over the CRT client, {@code seekwell-crt}, {@code aal}, {@code
   * iceberg-default}, {@code s3a-classic}, {@code s3a-analytics} (hadoop-aws 3.5.0's default
   * stream), and Seekwell through its connectors, {@code seekwell-iceberg} and {@code
   * seekwell-s3a}. The {@code seekwell} settings (Seekwell's configuration keys) apply to all three
   * Seekwell paths, given as each stack gives them: as they are, as {@code seekwell.*} FileIO
   * properties, as {@code fs.s3a.seekwell.*}.
   */
  public static ReadPath open(
      String name,
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      Map<String, String> seekwell)
      throws IOException {
    return switch (readPathOf(name)) {
      case "seekwell" ->
          new SeekwellPath(
              Clients.async(endpoint, credentials, counter),
              Dataset.BUCKET,
              SeekwellSettings.configuration(seekwell));
      case "seekwell-crt" -> {
        S3SeekableInputStreamConfiguration configuration = SeekwellSettings.configuration(seekwell);
        yield new SeekwellPath(
            Clients.crt(endpoint, credentials, counter, configuration.client()),
            Dataset.BUCKET,
            configuration);
      }
      case "aal" -> new AalPath(Clients.async(endpoint, credentials, counter), Dataset.BUCKET);
      case "iceberg-default" ->
          new IcebergPath(
              Clients.sync(endpoint, credentials, counter), Dataset.BUCKET, Optional.empty());
      case "seekwell-iceberg" ->
          new IcebergPath(
              Clients.sync(endpoint, credentials, counter), Dataset.BUCKET, Optional.of(seekwell));
      case "s3a-classic" ->
          new S3aPath(endpoint, credentials, counter, Dataset.BUCKET, S3aPath.Stream.classic(), 0);
      case "s3a-analytics" ->
          new S3aPath(
              endpoint, credentials, counter, Dataset.BUCKET, S3aPath.Stream.analytics(), 0);
      case ORC_TUNED ->
          new S3aPath(
              endpoint,
              credentials,
              counter,
              Dataset.BUCKET,
              S3aPath.Stream.classic(),
              S3aPath.ORC_TUNED_SEEK_SIZE);
      case "seekwell-s3a" ->
          new S3aPath(
              endpoint, credentials, counter, Dataset.BUCKET, S3aPath.Stream.seekwell(seekwell), 0);
      default -> throw new IllegalArgumentException("Unknown read path: " + name);
    };
  }
}
