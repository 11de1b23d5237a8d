package io.seekwell.bench;

import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * How many small reads one process sustains: {@code T} threads, each reading 4 KiB at a random
 * place of a random one of many objects, each read through a stream opened for it (its length
 * known, so no HEAD), as readers of footers, manifests and random columns do. Per read path and
 * thread count: reads and GETs per second, read latency p50 and p99 (open, read and close), this
 * JVM's CPU per GET, and the bytes its threads allocated per GET (threads that end during the
 * measurement are not counted).
 *
 * <p>Arguments: {@code --endpoint}, {@code --access-key}, {@code --secret-key}, {@code --paths
 * seekwell,aal}, {@code --threads 1,16,64,256}, {@code --seconds 10} (measured, after 2 s of
 * warm-up per run), {@code --objects 64} of {@code --object-mb 16}, {@code --seekwell k=v,...},
 * {@code --memory-mb 64} (the cache bound given to Seekwell and AAL alike), {@code --report FILE}.
 */
public final class RequestRateBenchmark {

  private static final int READ = 4096;
  private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);

  private RequestRateBenchmark() {}

  /** One measurement of one path at one thread count. */
  record Result(
      String path,
      int threads,
      double seconds,
      long reads,
      long gets,
      long bytes,
      long[] latencies,
      long cpuNanos,
      long allocated) {

    String row() {
      Arrays.sort(latencies);
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.0f | %.0f | %.2f | %.2f | %.3f | %.1f | %.1f |",
          path,
          threads,
          reads / seconds,
          gets / seconds,
          percentile(0.50) / 1e6,
          percentile(0.99) / 1e6,
          gets == 0 ? 0 : cpuNanos / 1e6 / gets,
          gets == 0 ? 0 : allocated / 1024.0 / gets,
          gets == 0 ? 0 : bytes / 1024.0 / gets);
    }

    private double percentile(double fraction) {
      return latencies.length == 0
          ? 0
          : latencies[Math.min(latencies.length - 1, (int) (fraction * latencies.length))];
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    URI endpoint = URI.create(Options.required(options, "endpoint"));
    StaticCredentialsProvider credentials = Benchmark.credentials(options);
    int objects = Integer.parseInt(options.getOrDefault("objects", "64"));
    long objectSize = Long.parseLong(options.getOrDefault("object-mb", "16")) << 20;
    double seconds = Double.parseDouble(options.getOrDefault("seconds", "10"));
    // Both libraries' caches are held to the same small bound, so that the reads miss as they would
    // over a data set far larger than memory, and GETs are what is measured.
    String memory = String.valueOf(Long.parseLong(options.getOrDefault("memory-mb", "64")) << 20);
    Map<String, String> seekwell =
        new LinkedHashMap<>(Benchmark.settings(options.getOrDefault("seekwell", "")));
    seekwell.putIfAbsent("physicalio.max.memory.limit", memory);
    Map<String, String> aal = Map.of("physicalio.max.memory.limit", memory);
    List<String> keys;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      keys = prepare(admin, objects, objectSize);
    }
    List<Result> results = new ArrayList<>();
    for (String threadCount : options.getOrDefault("threads", "1,16,64,256").split(",")) {
      for (String path : options.getOrDefault("paths", "seekwell,aal").split(",")) {
        int threads = Integer.parseInt(threadCount.trim());
        System.out.println("... " + path.trim() + ", " + threads + " threads");
        RequestCounter counter = new RequestCounter();
        try (ReadPath readers =
            path.trim().equals("aal")
                ? new AalPath(Clients.async(endpoint, credentials, counter), Dataset.BUCKET, aal)
                : Benchmark.open(path.trim(), endpoint, credentials, counter, seekwell)) {
          Result result =
              measure(path.trim(), readers, counter, keys, objectSize, threads, seconds);
          System.out.println(result.row());
          results.add(result);
        }
      }
    }
    Path report =
        Path.of(options.getOrDefault("report", "benchmarks/target/benchmarks-request-rate.md"));
    Files.writeString(report, markdown(results, options));
    System.out.println("Report written to " + report);
  }

  private static List<String> prepare(S3Client admin, int objects, long objectSize) {
    Dataset.ensureBucket(admin);
    List<String> keys = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(5);
    byte[] content = new byte[Math.toIntExact(objectSize)];
    for (int i = 0; i < objects; i++) {
      String key = "rate/object-" + i + ".bin";
      keys.add(key);
      try {
        if (admin.headObject(b -> b.bucket(Dataset.BUCKET).key(key)).contentLength()
            == objectSize) {
          continue;
        }
      } catch (NoSuchKeyException e) {
        // Not uploaded yet.
      }
      random.nextBytes(content);
      admin.putObject(b -> b.bucket(Dataset.BUCKET).key(key), RequestBody.fromBytes(content));
    }
    return keys;
  }

  private static Result measure(
      String path,
      ReadPath readers,
      RequestCounter counter,
      List<String> keys,
      long objectSize,
      int threads,
      double seconds)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime() + WARM_UP_NANOS;
      long end = start + (long) (seconds * 1e9);
      List<Future<long[]>> runs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long seed = t;
        runs.add(pool.submit(() -> readUntil(readers, keys, objectSize, seed, start, end)));
      }
      // The counters are read at the start and end of the measured window, from this thread.
      sleepUntil(start);
      long gets = counter.gets();
      long bytes = counter.bytes();
      long cpu = processCpuNanos();
      long allocated = allocatedBytes();
      sleepUntil(end);
      gets = counter.gets() - gets;
      bytes = counter.bytes() - bytes;
      cpu = processCpuNanos() - cpu;
      allocated = allocatedBytes() - allocated;
      List<long[]> latencies = new ArrayList<>();
      for (Future<long[]> run : runs) {
        latencies.add(run.get(5, TimeUnit.MINUTES));
      }
      long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
      return new Result(path, threads, seconds, all.length, gets, bytes, all, cpu, allocated);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Reads until {@code end}; returns the latencies of the reads that started after {@code start}.
   */
  private static long[] readUntil(
      ReadPath readers, List<String> keys, long objectSize, long seed, long start, long end)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] buffer = new byte[READ];
    long[] latencies = new long[1024];
    int count = 0;
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      String key = keys.get(random.nextInt(keys.size()));
      long position = random.nextLong(objectSize - READ);
      try (ReadPath.PositionalReader reader = readers.open(key, objectSize)) {
        reader.seek(position);
        for (int done = 0; done < READ; ) {
          int n = reader.read(buffer, done, READ - done);
          if (n < 0) {
            throw new EOFException(key + " ended at " + (position + done));
          }
          done += n;
        }
      }
      if (now >= start) {
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = System.nanoTime() - now;
      }
    }
    return Arrays.copyOf(latencies, count);
  }

  private static void sleepUntil(long deadline) throws InterruptedException {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
        .filter(bytes -> bytes > 0)
        .sum();
  }

  private static String markdown(List<Result> results, Map<String, String> options) {
    StringBuilder out = new StringBuilder("# Request rate\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Run on %s: %d cores, Java %s, MinIO on loopback. Each thread reads 4 KiB at a random"
                + " place of a random one of %s objects of %s MiB, through a stream opened for the"
                + " read; %s s measured after 2 s of warm-up, a fresh client and factory per run."
                + " Seekwell's and AAL's caches are bounded to %s MiB (AAL's bound is swept every"
                + " 5 s rather than enforced), so that most reads miss."
                + " Latency is the open, read and close; CPU is this JVM's, per GET; allocation is"
                + " what this JVM's threads allocated, per GET.\n\n",
            LocalDate.now(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"),
            options.getOrDefault("objects", "64"),
            options.getOrDefault("object-mb", "16"),
            options.getOrDefault("seconds", "10"),
            options.getOrDefault("memory-mb", "64")));
    out.append(
        "| path | threads | reads/s | GETs/s | p50 ms | p99 ms | CPU ms/GET | KiB allocated/GET"
            + " | KiB/GET |\n");
    out.append("|---|---|---|---|---|---|---|---|---|\n");
    results.forEach(result -> out.append(result.row()).append('\n'));
    return out.toString();
  }
}
