package io.seekwell.bench.soak;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.bench.Directories;
import io.seekwell.bench.Options;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.ReadPath;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Workload;
import io.seekwell.testing.FaultProxy;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The soak benchmark: one long-lived read path each through Seekwell's own factory, its Iceberg
 * FileIO and its S3A stream factory, all with the disk tier on in one directory, serve many
 * concurrent streams of mixed workloads (Parquet projections and scans with vectored reads, small
 * files, sequential and random reads, ORC, and objects overwritten now and then) for {@code
 * --minutes}, through the emulated S3 network with faults on a share of the connections (a kind at
 * a time, changing every interval) and 503s now and then. Every read is checked: a workload against
 * its checksum on a healthy network, an overwritten object against the versions written. Every
 * {@code --sample-seconds} it records the process's heap (after a full collection), direct and
 * mapped memory, resident set, threads, open files, the connections the proxy holds, the disk
 * tier's size and the bytes the core factory caches; none may grow ({@link SoakReport}: after the
 * first {@code --warmup-minutes}, the caches never above their bounds), while a new object is read
 * once every second and never again. Twice, at the warm-up's end and at the end, no task runs for
 * {@code --idle-seconds} (past the pools' keep-alive) and then it samples: threads are judged by
 * those two. Ends with an error on any wrong byte, failed read or growth.
 */
public final class SoakBenchmark {

  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "scale",
          "minutes",
          "warmup-minutes",
          "sample-seconds",
          "idle-seconds",
          "threads",
          "fault-fraction",
          "seekwell",
          "report",
          "data");

  /** Seekwell's path in each stack: its own factory, its Iceberg FileIO, its S3A stream factory. */
  static final List<Peer> PATHS =
      Arrays.stream(Peer.Stack.values()).map(Peer.Stack::seekwell).toList();

  static final List<Workload> WORKLOADS =
      List.of(
          Workload.W1,
          Workload.W2,
          Workload.W3,
          Workload.W5,
          Workload.W6,
          Workload.W9,
          Workload.W11);
  private static final Path DISK = Path.of("benchmarks/target/soak-disk");
  private static final int VERSIONED_OBJECTS = 8;
  private static final int VERSIONED_LENGTH = 1 << 20;

  /** New objects read once: small enough to be fetched whole, at open. */
  private static final int FRESH_LENGTH = 256 << 10;

  private SoakBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("SoakBenchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
    try (FaultProxy proxy = FaultProxy.start(toxiproxy != null ? toxiproxy.endpoint() : endpoint)) {
      run(options, endpoint, proxy, Optional.ofNullable(toxiproxy));
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(
      Options options, URI endpoint, FaultProxy proxy, Optional<ToxiproxyServer> latencyProxy)
      throws Exception {
    StaticCredentialsProvider credentials = Store.credentials(options);
    double minutes = options.decimal("minutes", 60);
    double warmup = options.decimal("warmup-minutes", Math.max(0.5, minutes / 6));
    long sampleMillis = (long) (options.decimal("sample-seconds", 60) * 1000);
    // Past the pools' keep-alive: Seekwell's 30 seconds, S3A's transfer pool's 60.
    double idleSeconds = options.decimal("idle-seconds", 75);
    if (warmup + 3 * sampleMillis / 60e3 >= minutes) {
      throw new IllegalArgumentException(
          "--warmup-minutes "
              + warmup
              + " leaves fewer than 3 samples of --sample-seconds to judge in --minutes "
              + minutes);
    }
    int threads = options.integer("threads", 8);
    double faultFraction = options.decimal("fault-fraction", 0.02);
    Path report = Path.of(options.text("report", "docs/benchmarks-soak.md"));
    Map<String, String> seekwell = new LinkedHashMap<>();
    seekwell.put(SeekwellSettings.DISK_DIRECTORY, DISK.toAbsolutePath().toString());
    seekwell.put("physicalio.disk.cache.max.size", "512MB");
    seekwell.put("physicalio.max.memory.limit", "256MB");
    seekwell.putAll(SeekwellSettings.of(options));
    S3SeekableInputStreamConfiguration configured = SeekwellSettings.configuration(seekwell);
    Directories.delete(DISK);

    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      Dataset data =
          Dataset.prepare(
              admin, Path.of(options.text("data", ".tools/bench-data")), Dataset.Scale.of(options));
      VersionedObjects versioned =
          new VersionedObjects(
              admin, Store.BUCKET, "soak/versioned-", VERSIONED_OBJECTS, VERSIONED_LENGTH);
      Map<Workload, Long> expected = expectedChecksums(endpoint, credentials, data);
      proxy.stopRecordingRequestHeads();
      RequestCounter counter = new RequestCounter();
      Map<Peer, ReadPath> paths = new LinkedHashMap<>();
      try {
        for (Peer path : PATHS) {
          paths.put(path, path.open(proxy.uri(), credentials, counter, seekwell));
        }
        SoakRun soak =
            new SoakRun(
                paths,
                data,
                versioned,
                new FreshObjects(admin, Store.BUCKET, "soak/fresh-", FRESH_LENGTH),
                expected,
                latencyProxy);
        List<SoakSample> samples =
            soak.run(
                proxy,
                counter,
                threads,
                new SoakRun.Schedule(
                    minutes, warmup, sampleMillis, Duration.ofMillis((long) (idleSeconds * 1000))),
                faultFraction);
        for (Map.Entry<Peer, ReadPath> path : paths.entrySet()) {
          path.getValue()
              .seekwellMetrics()
              .ifPresent(
                  metrics -> SeekwellSettings.requireDiskTier(path.getKey().pathName(), metrics));
        }
        SoakReport verdict =
            new SoakReport(
                samples,
                soak.tally(),
                soak.failures(),
                new SoakReport.Settings(
                    seekwell,
                    minutes,
                    warmup,
                    threads,
                    faultFraction,
                    VERSIONED_OBJECTS,
                    VERSIONED_LENGTH,
                    configured.physicalIO().maxMemoryLimit(),
                    diskBound(configured),
                    idleSeconds));
        verdict.write(report);
        System.out.println(verdict.markdown());
        System.out.println("Soak report written to " + report);
        List<String> broken = verdict.broken();
        if (!broken.isEmpty()) {
          throw new IllegalStateException("The soak failed: " + broken);
        }
      } finally {
        for (ReadPath path : paths.values()) {
          path.close();
        }
      }
    }
  }

  /**
   * The most the disk tier's directory may hold in the soak: each path's factory writes to a slot
   * of its own, which keeps within its share of the directory ({@code max.size / max.slots}), so
   * files a slot orphaned would show above it sooner than above the directory's {@code max.size}.
   */
  static long diskBound(S3SeekableInputStreamConfiguration configured) {
    int slots = Math.min(PATHS.size(), configured.diskCache().maxSlots());
    return slots * (configured.diskCache().maxSize() / configured.diskCache().maxSlots());
  }

  /**
   * Each workload's checksum as Iceberg's own {@code S3FileIO} reads it from the store directly,
   * with no fault and no Seekwell: what every read of the soak must match.
   */
  private static Map<Workload, Long> expectedChecksums(
      URI endpoint, StaticCredentialsProvider credentials, Dataset data) throws IOException {
    Map<Workload, Long> expected = new LinkedHashMap<>();
    try (ReadPath reference =
        Peer.ICEBERG_DEFAULT.open(endpoint, credentials, new RequestCounter(), Map.of())) {
      for (Workload workload : WORKLOADS) {
        expected.put(workload, workload.run(reference, data));
      }
    }
    return expected;
  }

  /**
   * The disk space the disk tier's directory takes, as {@code du} counts it: its data files are
   * sparse, so their lengths would overstate it.
   */
  static long diskBytes() throws IOException, InterruptedException {
    if (!Files.exists(DISK)) {
      return 0;
    }
    // Files evicted while du walks make it complain and exit 1; its total is still printed.
    Process du =
        new ProcessBuilder("du", "-sk", DISK.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String output = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    du.waitFor();
    if (!output.matches("\\d+\\s.*")) {
      throw new IOException("du -sk " + DISK + " printed: " + output);
    }
    return Long.parseLong(output.split("\\s+")[0]) * 1024;
  }
}
