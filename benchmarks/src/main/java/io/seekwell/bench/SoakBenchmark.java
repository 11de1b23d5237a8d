package io.seekwell.bench;

import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * tier's size and the bytes the core factory caches; after the first {@code --warmup-minutes} none
 * may grow ({@link SoakReport}). Ends with an error on any wrong byte, failed read or growth.
 */
public final class SoakBenchmark {

  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "scale",
          "minutes",
          "warmup-minutes",
          "sample-seconds",
          "threads",
          "fault-fraction",
          "seekwell",
          "report",
          "data");

  static final List<String> PATHS = List.of("seekwell", "seekwell-iceberg", "seekwell-s3a");
  static final List<Workload> WORKLOADS =
      List.of(
          Workload.W1,
          Workload.W2,
          Workload.W3,
          Workload.W5,
          Workload.W6,
          Workload.W9,
          Workload.W11);
  private static final List<ConnectionFault> FAULTS =
      List.of(
          ConnectionFault.STALL_BEFORE_HEADERS,
          ConnectionFault.STALL_BODY,
          ConnectionFault.CUT_FIN,
          ConnectionFault.CUT_RST,
          ConnectionFault.SLOW_FIRST_BYTE);
  private static final Path DISK = Path.of("benchmarks/target/soak-disk");
  private static final int VERSIONED_OBJECTS = 8;
  private static final int VERSIONED_LENGTH = 1 << 20;

  private SoakBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("SoakBenchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
    try (FaultProxy proxy = FaultProxy.start(toxiproxy != null ? toxiproxy.endpoint() : endpoint)) {
      run(options, endpoint, proxy);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static void run(Options options, URI endpoint, FaultProxy proxy) throws Exception {
    StaticCredentialsProvider credentials = Store.credentials(options);
    double minutes = options.decimal("minutes", 60);
    double warmup = options.decimal("warmup-minutes", Math.max(0.5, minutes / 6));
    long sampleMillis = (long) (options.decimal("sample-seconds", 60) * 1000);
    int threads = options.integer("threads", 8);
    double faultFraction = options.decimal("fault-fraction", 0.02);
    Path report = Path.of(options.text("report", "docs/benchmarks-soak.md"));
    Map<String, String> seekwell = new LinkedHashMap<>();
    seekwell.put("physicalio.disk.cache.dir", DISK.toAbsolutePath().toString());
    seekwell.put("physicalio.disk.cache.max.size", "512MB");
    seekwell.put("physicalio.max.memory.limit", "256MB");
    seekwell.putAll(ColdRead.settings(options));
    Directories.delete(DISK);

    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      Dataset data =
          Dataset.prepare(
              admin, Path.of(options.text("data", ".tools/bench-data")), Benchmark.scale(options));
      VersionedObjects versioned =
          new VersionedObjects(
              admin, Dataset.BUCKET, "soak/versioned-", VERSIONED_OBJECTS, VERSIONED_LENGTH);
      RequestCounter counter = new RequestCounter();
      Map<String, ReadPath> paths = new LinkedHashMap<>();
      try {
        for (String name : PATHS) {
          paths.put(name, ColdRead.open(name, proxy.uri(), credentials, counter, seekwell));
        }
        Map<Workload, Long> expected = expectedChecksums(paths, data);
        Soak soak = new Soak(paths, data, versioned, expected);
        List<SoakSample> samples =
            soak.run(proxy, counter, threads, minutes, sampleMillis, faultFraction, admin);
        SoakReport verdict =
            new SoakReport(samples, seekwell, warmup, threads, faultFraction, soak.failures());
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
   * Each workload's checksum, on a healthy network, on the first path; every path must agree, or
   * the run stops before it starts.
   */
  private static Map<Workload, Long> expectedChecksums(Map<String, ReadPath> paths, Dataset data)
      throws IOException {
    Map<Workload, Long> expected = new LinkedHashMap<>();
    for (Workload workload : WORKLOADS) {
      for (Map.Entry<String, ReadPath> path : paths.entrySet()) {
        long checksum = workload.run(path.getValue(), data);
        Long first = expected.putIfAbsent(workload, checksum);
        if (first != null && first != checksum) {
          throw new IllegalStateException(
              workload + " on " + path.getKey() + " differs from the first path's, healthy");
        }
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

  /** The workers, the faults and the sampling of one soak. */
  private static final class Soak {
    private final Map<String, ReadPath> paths;
    private final Dataset data;
    private final VersionedObjects versioned;
    private final Map<Workload, Long> expected;
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong wrong = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong changed = new AtomicLong();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final Map<String, Long> tasksRun = new ConcurrentHashMap<>();
    private volatile boolean stop;

    Soak(
        Map<String, ReadPath> paths,
        Dataset data,
        VersionedObjects versioned,
        Map<Workload, Long> expected) {
      this.paths = paths;
      this.data = data;
      this.versioned = versioned;
      this.expected = expected;
    }

    List<String> failures() {
      return failures;
    }

    List<SoakSample> run(
        FaultProxy proxy,
        RequestCounter counter,
        int threads,
        double minutes,
        long sampleMillis,
        double faultFraction,
        S3Client admin)
        throws Exception {
      List<Thread> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        long seed = i;
        Thread worker = new Thread(() -> work(new SplittableRandom(seed)), "soak-worker-" + i);
        worker.setDaemon(true);
        workers.add(worker);
      }
      long start = System.nanoTime();
      long end = start + (long) (minutes * 60e9);
      List<SoakSample> samples = new ArrayList<>();
      samples.add(sample(proxy, counter, start));
      workers.forEach(Thread::start);
      SplittableRandom random = new SplittableRandom(7);
      int interval = 0;
      while (System.nanoTime() < end) {
        ConnectionFault fault = FAULTS.get(interval++ % FAULTS.size());
        proxy.faultConnections(fault, faultFraction, random.nextLong());
        long intervalEnd = Math.min(end, System.nanoTime() + sampleMillis * 1_000_000);
        while (System.nanoTime() < intervalEnd) {
          // Now and then: an object overwritten, and the next requests answered 503 SlowDown.
          versioned.overwrite(random.nextInt(versioned.count()));
          proxy.failNextRequests(2);
          TimeUnit.MILLISECONDS.sleep(
              Math.min(5_000, Math.max(0, (intervalEnd - System.nanoTime()) / 1_000_000)));
        }
        samples.add(sample(proxy, counter, start));
        SoakSample last = samples.get(samples.size() - 1);
        System.out.printf(
            Locale.ROOT,
            "... %.1f min: %d reads, %d wrong, %d failed; heap %.0f MB, RSS %.0f MB, %d threads,"
                + " %d files, %d connections, disk %.0f MB%n",
            last.minutes(),
            last.reads(),
            last.wrong(),
            last.failed(),
            SoakSample.Resource.HEAP.of(last),
            SoakSample.Resource.RESIDENT.of(last),
            last.process().threads(),
            last.process().openFiles(),
            last.connections(),
            SoakSample.Resource.DISK.of(last));
      }
      stop = true;
      proxy.stopFaultingConnections();
      for (Thread worker : workers) {
        worker.join(TimeUnit.MINUTES.toMillis(5));
        if (worker.isAlive()) {
          failures.add(worker.getName() + " still reading 5 minutes after the end");
          failed.incrementAndGet();
        }
      }
      System.out.println("... tasks run: " + tasksRun);
      System.out.println(
          "... streams of overwritten objects that failed as their object changed (expected): "
              + changed.get());
      return samples;
    }

    private SoakSample sample(FaultProxy proxy, RequestCounter counter, long start)
        throws IOException, InterruptedException {
      long cached = paths.get("seekwell") instanceof SeekwellPath core ? core.cachedBytes() : 0;
      return new SoakSample(
          (System.nanoTime() - start) / 60e9,
          ProcessResources.sample(),
          proxy.openConnections(),
          diskBytes(),
          cached,
          reads.get(),
          wrong.get(),
          failed.get(),
          counter.gets());
    }

    /** One worker: tasks chosen at random until the soak ends. */
    private void work(SplittableRandom random) {
      List<String> names = new ArrayList<>(paths.keySet());
      while (!stop) {
        String path = names.get(random.nextInt(names.size()));
        // Iceberg never overwrites a file, and its FileIO declares every file immutable: objects
        // that are overwritten are read through the other two paths.
        boolean overwritten =
            !path.equals("seekwell-iceberg") && random.nextInt(WORKLOADS.size() + 1) == 0;
        String task =
            overwritten ? "overwritten" : WORKLOADS.get(random.nextInt(WORKLOADS.size())).name();
        tasksRun.merge(path + " " + task, 1L, Long::sum);
        try {
          boolean right =
              overwritten
                  ? readOverwritten(paths.get(path), random)
                  : Workload.valueOf(task).run(paths.get(path), data)
                      == expected.get(Workload.valueOf(task));
          reads.incrementAndGet();
          if (!right) {
            wrong.incrementAndGet();
            failures.add("wrong bytes: " + task + " on " + path);
          }
        } catch (IOException | RuntimeException e) {
          if (overwritten && changedUnderTheStream(e)) {
            // As documented: a stream never mixes versions, so one whose object was overwritten
            // fails with ObjectChangedException once it needs bytes it has not got.
            changed.incrementAndGet();
          } else {
            failed.incrementAndGet();
            failures.add(task + " on " + path + " failed: " + Store.rootMessage(e, 300));
            e.printStackTrace(System.out);
          }
        }
      }
    }

    private static boolean changedUnderTheStream(Throwable error) {
      for (Throwable cause = error; cause != null; cause = cause.getCause()) {
        if (cause instanceof ObjectChangedException) {
          return true;
        }
      }
      return false;
    }

    /**
     * Four random ranges of an overwritten object in one stream: each must be the bytes of a
     * version written, all of the same version.
     */
    private boolean readOverwritten(ReadPath path, SplittableRandom random) throws IOException {
      int object = random.nextInt(versioned.count());
      Optional<byte[]> version = Optional.empty();
      try (ReadPath.PositionalReader reader =
          path.open(versioned.key(object), versioned.length())) {
        for (int i = 0; i < 4; i++) {
          int length = 1 + random.nextInt(256 * 1024);
          long position = random.nextLong(versioned.length() - length);
          byte[] bytes = new byte[length];
          reader.seek(position);
          for (int done = 0; done < length; ) {
            int n = reader.read(bytes, done, length - done);
            if (n < 0) {
              throw new java.io.EOFException(versioned.key(object) + " ended early");
            }
            done += n;
          }
          version = versioned.versionOf(object, position, bytes, version);
          if (version.isEmpty()) {
            return false;
          }
        }
      }
      return true;
    }
  }
}
