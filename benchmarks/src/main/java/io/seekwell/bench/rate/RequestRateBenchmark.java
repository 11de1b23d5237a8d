package io.seekwell.bench.rate;

import io.seekwell.bench.Options;
import io.seekwell.bench.ProcessCpu;
import io.seekwell.bench.Progress;
import io.seekwell.bench.Runner;
import io.seekwell.bench.paths.AalPath;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.ReadPath;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.Uploads;
import io.seekwell.testing.FaultProxy;
import java.io.EOFException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

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
 * {@code --memory-mb 64} (the cache bound given to Seekwell and AAL alike), {@code --report FILE},
 * {@code --append true} (add to the report instead of replacing it). Before the first thread count
 * is measured, every path runs once unmeasured, so that no path's figure carries the JVM's warm-up;
 * the measured runs take the paths rotated by one.
 *
 * <p>The throttled variant, {@code --throttle R}: the paths read through a {@link FaultProxy} that
 * holds each request {@code --store-latency-ms 25} and answers 503 SlowDown to the requests over
 * {@code R} a second. It reports failed reads (a read that gave up is counted and the thread goes
 * on) and the requests the store answered per second, as a share of {@code R}.
 */
public final class RequestRateBenchmark {

  private static final int READ = 4096;
  private static final long WARM_UP_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** The options this benchmark takes besides the store's. */
  static final Set<String> OPTIONS =
      Set.of(
          "paths",
          "threads",
          "seconds",
          "objects",
          "object-mb",
          "seekwell",
          "memory-mb",
          "report",
          "append",
          "throttle",
          "store-latency-ms",
          "smoke");

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
      long allocated,
      long failures,
      StoreCounts store) {}

  /**
   * What a throttling store did in the measured window.
   *
   * @param limit the requests per second it answers
   * @param answered requests it answered
   * @param throttled requests it answered with 503 SlowDown
   */
  record StoreCounts(double limit, long answered, long throttled) {}

  /** What one reading thread did: latencies of its reads in the window, and reads that failed. */
  private record ThreadRun(long[] latencies, long failures) {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("RequestRateBenchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    StaticCredentialsProvider credentials = Store.credentials(options);
    int objects = options.integer("objects", 64);
    long objectSize = options.longInteger("object-mb", 16) << 20;
    double seconds = options.decimal("seconds", 10);
    // Both libraries' caches are held to the same small bound, so that the reads miss as they would
    // over a data set far larger than memory, and GETs are what is measured.
    String memory = String.valueOf(options.longInteger("memory-mb", 64) << 20);
    Map<String, String> seekwell = new LinkedHashMap<>(SeekwellSettings.of(options));
    seekwell.putIfAbsent("physicalio.max.memory.limit", memory);
    Map<String, String> aal = Map.of("physicalio.max.memory.limit", memory);
    List<String> keys;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      keys = prepare(admin, objects, objectSize);
    }
    double throttle = options.decimal("throttle", 0);
    FaultProxy proxy = null;
    URI readFrom = endpoint;
    if (throttle > 0) {
      proxy = FaultProxy.start(endpoint);
      proxy.delayRequests(Duration.ofMillis(options.longInteger("store-latency-ms", 25)));
      readFrom = proxy.uri();
    }
    List<Result> results = new ArrayList<>();
    try {
      List<String> paths = options.list("paths", Peer.SEEKWELL + "," + Peer.AAL);
      List<Integer> threadCounts =
          options.list("threads", "1,16,64,256", "numbers", Integer::valueOf);
      for (int threads : threadCounts) {
        URI from = readFrom;
        FaultProxy store = proxy;
        // The first thread count is measured after an unmeasured run of every path, and in the
        // other order: the JVM's first run of the SDK and the event loops pays their compilation.
        int warmups = threads == threadCounts.get(0) ? 1 : 0;
        Map<String, List<Result>> byPath =
            new Runner(paths, warmups, 1, Runner.Order.ROTATED)
                .run(
                    (path, round) -> {
                      Run run = new Run(path, threads, seconds, keys, objectSize, store, throttle);
                      System.out.println(
                          "... "
                              + run.path
                              + ", "
                              + threads
                              + " threads"
                              + (round > 0 ? "" : " (warm-up, not measured)"));
                      RequestCounter counter = new RequestCounter();
                      try (ReadPath readers =
                          open(run, from, credentials, counter, seekwell, aal)) {
                        Result result = measure(run, readers, counter);
                        System.out.println(RateReport.row(result));
                        return result;
                      }
                    });
        byPath.values().forEach(results::addAll);
      }
    } finally {
      if (proxy != null) {
        proxy.close();
      }
    }
    Path report = Path.of(options.text("report", "benchmarks/target/benchmarks-request-rate.md"));
    if (options.flag("append")) {
      Files.writeString(
          report, "\n" + RateReport.markdown(results, options), StandardOpenOption.APPEND);
    } else {
      Files.writeString(report, RateReport.markdown(results, options));
    }
    System.out.println("Report written to " + report);
  }

  /** One measurement's settings: a path at a thread count, against a throttling store or not. */
  private record Run(
      String path,
      int threads,
      double seconds,
      List<String> keys,
      long objectSize,
      FaultProxy proxy,
      double throttle) {}

  /**
   * The read path of {@code run}. AAL does not retry a 503 itself; against a throttling store it
   * gets the SDK's default retries, as an application that deploys it does.
   */
  private static ReadPath open(
      Run run,
      URI endpoint,
      StaticCredentialsProvider credentials,
      RequestCounter counter,
      Map<String, String> seekwell,
      Map<String, String> aal)
      throws IOException {
    if (!run.path.equals(Peer.AAL.pathName())) {
      return Peer.named(run.path).open(endpoint, credentials, counter, seekwell);
    }
    return new AalPath(
        run.proxy == null
            ? Clients.async(endpoint, credentials, counter)
            : Clients.asyncWithSdkRetries(endpoint, credentials, counter),
        Store.BUCKET,
        aal);
  }

  private static List<String> prepare(S3Client admin, int objects, long objectSize) {
    Uploads.ensureBucket(admin, Store.BUCKET);
    AtomicInteger done = new AtomicInteger();
    Progress progress =
        Progress.of(
            "uploading " + objects + " objects of " + (objectSize >> 20) + " MiB",
            () -> done.get() + " uploaded");
    try {
      return prepare(admin, objects, objectSize, done);
    } finally {
      progress.close();
    }
  }

  private static List<String> prepare(
      S3Client admin, int objects, long objectSize, AtomicInteger done) {
    List<String> keys = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(5);
    byte[] content = new byte[Math.toIntExact(objectSize)];
    for (int i = 0; i < objects; i++) {
      String key = "rate/object-" + i + ".bin";
      keys.add(key);
      boolean uploaded =
          Uploads.putIfMissing(
              admin,
              Store.BUCKET,
              key,
              objectSize,
              () -> {
                random.nextBytes(content);
                return RequestBody.fromBytes(content);
              });
      if (uploaded) {
        done.incrementAndGet();
      }
    }
    return keys;
  }

  private static Result measure(Run run, ReadPath readers, RequestCounter counter)
      throws IOException, InterruptedException {
    if (run.proxy != null) {
      run.proxy.throttleAbove(run.throttle);
    }
    ExecutorService pool = Executors.newFixedThreadPool(run.threads);
    try {
      long start = System.nanoTime() + WARM_UP_NANOS;
      long end = start + (long) (run.seconds * 1e9);
      List<Future<ThreadRun>> runs = new ArrayList<>();
      for (int t = 0; t < run.threads; t++) {
        long seed = t;
        runs.add(pool.submit(() -> readUntil(readers, run, seed, start, end)));
      }
      // The counters are read at the start and end of the measured window, from this thread.
      sleepUntil(start);
      long gets = counter.gets();
      long bytes = counter.bytes();
      long cpu = ProcessCpu.nanos();
      long allocated = allocatedBytes();
      long answered = run.proxy == null ? 0 : run.proxy.forwardedRequests();
      long throttled = run.proxy == null ? 0 : run.proxy.throttledRequests();
      sleepUntil(end);
      gets = counter.gets() - gets;
      bytes = counter.bytes() - bytes;
      cpu = ProcessCpu.nanos() - cpu;
      allocated = allocatedBytes() - allocated;
      StoreCounts store =
          run.proxy == null
              ? null
              : new StoreCounts(
                  run.throttle,
                  run.proxy.forwardedRequests() - answered,
                  run.proxy.throttledRequests() - throttled);
      List<long[]> latencies = new ArrayList<>();
      long failures = 0;
      for (Future<ThreadRun> thread : runs) {
        ThreadRun done;
        try {
          done = thread.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException | TimeoutException e) {
          throw new IOException("A reading thread of " + run.path + " failed", e);
        }
        latencies.add(done.latencies());
        failures += done.failures();
      }
      long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
      return new Result(
          run.path,
          run.threads,
          run.seconds,
          all.length,
          gets,
          bytes,
          all,
          cpu,
          allocated,
          failures,
          store);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Reads until {@code end}: the latencies of the reads that started after {@code start} and
   * succeeded, and how many reads failed. Against a throttling store a failed read is counted and
   * the thread goes on; otherwise it ends the run.
   */
  private static ThreadRun readUntil(ReadPath readers, Run run, long seed, long start, long end)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] buffer = new byte[READ];
    long[] latencies = new long[1024];
    int count = 0;
    long failures = 0;
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      String key = run.keys.get(random.nextInt(run.keys.size()));
      long position = random.nextLong(run.objectSize - READ);
      try {
        readOnce(readers, key, run.objectSize, position, buffer);
      } catch (IOException e) {
        if (run.proxy == null) {
          throw e;
        }
        if (failures++ == 0) {
          System.out.println("    a read failed: " + e);
        }
        continue;
      }
      if (now >= start) {
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = System.nanoTime() - now;
      }
    }
    return new ThreadRun(Arrays.copyOf(latencies, count), failures);
  }

  private static void readOnce(
      ReadPath readers, String key, long objectSize, long position, byte[] buffer)
      throws IOException {
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
  }

  private static void sleepUntil(long deadline) throws InterruptedException {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static long allocatedBytes() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return Arrays.stream(threads.getThreadAllocatedBytes(threads.getAllThreadIds()))
        .filter(bytes -> bytes > 0)
        .sum();
  }
}
