package io.seekwell.bench.soak;

import io.seekwell.bench.ProcessResources;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.ReadPath;
import io.seekwell.bench.paths.SeekwellPath;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Workload;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * One soak: its workers, the faults and overwrites it makes, and its sampling. Workers pick a path
 * and a task at random until the end; every read is checked. One more thread writes a new object
 * every second, reads it whole once through the paths that declare nothing immutable (in turn) and
 * deletes it ({@link FreshObjects}): no object is ever read twice, so what grows per object read
 * shows. Thread-safe as its counters are; the thread that calls {@link #run} makes the faults and
 * the samples.
 */
final class SoakRun {

  /** The wrong and failed reads described in the report; the rest are only counted. */
  private static final int DESCRIBED = 50;

  private static final List<ConnectionFault> FAULTS =
      List.of(
          ConnectionFault.STALL_BEFORE_HEADERS,
          ConnectionFault.STALL_BODY,
          ConnectionFault.CUT_FIN,
          ConnectionFault.CUT_RST,
          ConnectionFault.SLOW_FIRST_BYTE);

  /** Counters of the Seekwell paths recorded every interval, summed over the paths. */
  static final List<Metric> COUNTERS =
      List.of(
          Metric.RETRIES,
          Metric.HEDGED_GETS,
          Metric.STALLED_GETS_ABANDONED,
          Metric.BODIES_RESUMED,
          Metric.DISK_HITS,
          Metric.DISK_SHARED_HITS,
          Metric.PREFETCHED_BYTES,
          Metric.PREFETCHED_BYTES_UNUSED);

  /** What the workers did, counted after they all ended, and the proxy's restarts. */
  record Tally(
      long reads,
      long wrong,
      long failed,
      long changed,
      long overwrittenRight,
      long freshRead,
      long proxyRestarts) {}

  private final Map<Peer, ReadPath> paths;
  private final Dataset data;
  private final VersionedObjects versioned;
  private final FreshObjects fresh;
  private final Map<Workload, Long> expected;
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong wrong = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong changed = new AtomicLong();
  private final AtomicLong overwrittenRight = new AtomicLong();
  private final AtomicLong freshRead = new AtomicLong();
  private final List<String> failures = new CopyOnWriteArrayList<>();
  private final Map<String, Long> tasksRun = new ConcurrentHashMap<>();
  private final Pauses pauses;
  private volatile boolean stop;

  SoakRun(
      Map<Peer, ReadPath> paths,
      Dataset data,
      VersionedObjects versioned,
      FreshObjects fresh,
      Map<Workload, Long> expected,
      Optional<ToxiproxyServer> latencyProxy) {
    this.paths = paths;
    this.pauses = new Pauses(latencyProxy);
    this.data = data;
    this.versioned = versioned;
    this.fresh = fresh;
    this.expected = expected;
  }

  /** The first wrong and failed reads, described. */
  List<String> failures() {
    return failures;
  }

  Tally tally() {
    return new Tally(
        reads.get(),
        wrong.get(),
        failed.get(),
        changed.get(),
        overwrittenRight.get(),
        freshRead.get(),
        pauses.proxyRestarts());
  }

  /**
   * When a soak reads and samples: {@code minutes} of reading, an interval every {@code
   * sampleMillis}, and twice {@code idle} with no task running (at the warm-up's end, after {@code
   * warmupMinutes}, and at the end), sampled at its end.
   */
  record Schedule(double minutes, double warmupMinutes, long sampleMillis, Duration idle) {}

  /**
   * Runs {@code threads} workers on {@code schedule}, with {@code faultFraction} of the connections
   * of {@code proxy} faulted; returns the samples. A pause that cannot begin (tasks under way that
   * do not end) ends the run early, as a failed read.
   */
  List<SoakSample> run(
      FaultProxy proxy,
      RequestCounter counter,
      int threads,
      Schedule schedule,
      double faultFraction)
      throws Exception {
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      long seed = i;
      Thread worker = new Thread(() -> work(new SplittableRandom(seed)), "soak-worker-" + i);
      worker.setDaemon(true);
      workers.add(worker);
    }
    Thread freshReader = new Thread(this::readFreshObjects, "soak-fresh-objects");
    freshReader.setDaemon(true);
    workers.add(freshReader);
    long start = System.nanoTime();
    // Each pause (the wait for the tasks under way, then what is done between tasks) moves the
    // end, so that the soak reads for its minutes.
    long end = start + (long) (schedule.minutes() * 60e9);
    long warmupEnd = start + (long) (schedule.warmupMinutes() * 60e9);
    boolean idledAfterWarmup = false;
    boolean failedToPause = false;
    List<SoakSample> samples = new ArrayList<>();
    samples.add(sample(proxy, counter, start, false));
    workers.forEach(Thread::start);
    try {
      SplittableRandom random = new SplittableRandom(7);
      for (int interval = 0; System.nanoTime() < end && !failedToPause; interval++) {
        proxy.faultConnections(
            FAULTS.get(interval % FAULTS.size()), faultFraction, random.nextLong());
        long intervalEnd = Math.min(end, System.nanoTime() + schedule.sampleMillis() * 1_000_000);
        while (System.nanoTime() < intervalEnd) {
          // Every 5 seconds: an object overwritten, and the next requests answered 503 SlowDown.
          versioned.overwrite(random.nextInt(versioned.count()));
          proxy.failNextRequests(2);
          long left = (intervalEnd - System.nanoTime()) / 1_000_000;
          TimeUnit.MILLISECONDS.sleep(Math.max(0, Math.min(5_000, left)));
        }
        samples.add(sample(proxy, counter, start, false));
        System.out.println(samples.get(samples.size() - 1).progressLine());
        boolean idleNow = !idledAfterWarmup && System.nanoTime() >= warmupEnd;
        idledAfterWarmup |= idleNow;
        if (idleNow || pauses.proxyNeedsRestart()) {
          long pause = System.nanoTime();
          failedToPause =
              !betweenTasks(
                  () -> {
                    pauses.restartBloatedProxy();
                    if (idleNow) {
                      samples.add(idle(proxy, counter, start, schedule));
                    }
                  });
          end += System.nanoTime() - pause;
        }
      }
      // Idle at the end as at the warm-up's end: the workers alive, held between tasks.
      if (!failedToPause) {
        betweenTasks(() -> samples.add(idle(proxy, counter, start, schedule)));
      }
    } finally {
      stop = true;
      proxy.stopFaultingConnections();
      awaitWorkers(workers);
    }
    System.out.println(
        "... tasks run: " + tasksRun + "; new objects read once: " + freshRead.get());
    return samples;
  }

  /**
   * A sample after {@code schedule}'s idle time with no task running (the caller keeps them from
   * starting), and the live threads by name printed.
   */
  private SoakSample idle(FaultProxy proxy, RequestCounter counter, long start, Schedule schedule)
      throws IOException, InterruptedException {
    proxy.stopFaultingConnections();
    TimeUnit.NANOSECONDS.sleep(schedule.idle().toNanos());
    SoakSample sample = sample(proxy, counter, start, true);
    System.out.println(sample.progressLine());
    System.out.println("... live threads by name, idle: " + threadsByName());
    return sample;
  }

  /**
   * Runs {@code action} {@linkplain Pauses#between between tasks}; false, with a failed read
   * counted, if the tasks under way do not end within {@link Pauses#END_MINUTES}.
   */
  private boolean betweenTasks(Pauses.BetweenTasks action)
      throws IOException, InterruptedException {
    if (pauses.between(action)) {
      return true;
    }
    failed(
        "the tasks under way did not end within "
            + Pauses.END_MINUTES
            + " minutes: the soak ended");
    return false;
  }

  private void awaitWorkers(List<Thread> workers) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(Pauses.END_MINUTES);
    for (Thread worker : workers) {
      worker.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      if (worker.isAlive()) {
        failed(
            worker.getName()
                + " still reading "
                + Pauses.END_MINUTES
                + " minutes after the end, at "
                + Arrays.toString(worker.getStackTrace()));
      }
    }
  }

  /** The JVM's live threads counted by name with their numbers left out, most first. */
  private static Map<String, Long> threadsByName() {
    Map<String, Long> counts =
        Thread.getAllStackTraces().keySet().stream()
            .collect(
                Collectors.groupingBy(
                    thread -> thread.getName().replaceAll("[0-9]+", "#"), Collectors.counting()));
    Map<String, Long> sorted = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
    return sorted;
  }

  private SoakSample sample(FaultProxy proxy, RequestCounter counter, long start, boolean idle)
      throws IOException, InterruptedException {
    long cached = paths.get(Peer.SEEKWELL) instanceof SeekwellPath core ? core.cachedBytes() : 0;
    long[] counters = new long[COUNTERS.size()];
    for (ReadPath path : paths.values()) {
      Optional<MetricsSnapshot> metrics = path.seekwellMetrics();
      for (int i = 0; i < counters.length && metrics.isPresent(); i++) {
        counters[i] += metrics.get().get(COUNTERS.get(i));
      }
    }
    return new SoakSample(
        (System.nanoTime() - start) / 60e9,
        idle,
        ProcessResources.sample(),
        proxy.openConnections(),
        SoakBenchmark.diskBytes(),
        cached,
        reads.get(),
        wrong.get(),
        failed.get(),
        counter.gets(),
        counter.responseBytes(),
        counter.bytes(),
        counters);
  }

  /** One worker: tasks chosen at random until the soak ends; nothing it meets goes uncounted. */
  private void work(SplittableRandom random) {
    List<Peer> names = new ArrayList<>(paths.keySet());
    List<Workload> workloads = List.copyOf(expected.keySet());
    while (!stop) {
      Peer path = names.get(random.nextInt(names.size()));
      // Iceberg never overwrites a file, and its FileIO declares every file immutable: objects
      // that are overwritten are read through the other two paths.
      boolean overwritten = !declaresImmutable(path) && random.nextInt(workloads.size() + 1) == 0;
      Workload workload = overwritten ? null : workloads.get(random.nextInt(workloads.size()));
      String task = overwritten ? "overwritten" : workload.name();
      tasksRun.merge(path + " " + task, 1L, Long::sum);
      pauses.beginTask();
      try {
        boolean right =
            overwritten
                ? readOverwritten(paths.get(path), random)
                : workload.run(paths.get(path), data) == expected.get(workload);
        reads.incrementAndGet();
        if (right) {
          if (overwritten) {
            overwrittenRight.incrementAndGet();
          }
        } else {
          wrong.incrementAndGet();
          describe("wrong bytes: " + task + " on " + path);
        }
      } catch (Throwable e) {
        if (overwritten && changedUnderTheStream(e)) {
          // As documented: a stream never mixes versions, so one whose object was overwritten
          // fails with ObjectChangedException once it needs bytes it has not got.
          changed.incrementAndGet();
        } else {
          failed(task + " on " + path + " failed: " + Store.rootMessage(e, 300));
          e.printStackTrace(System.out);
        }
      } finally {
        pauses.endTask();
      }
    }
  }

  /**
   * Every second until the end: a new object, read whole once through the next of the paths that
   * declare nothing immutable (the Iceberg path's disk tier would keep every one, to its size
   * limit), then deleted.
   */
  private void readFreshObjects() {
    List<Peer> names = paths.keySet().stream().filter(path -> !declaresImmutable(path)).toList();
    for (long object = 0; !stop; object++) {
      long next = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
      Peer path = names.get((int) (object % names.size()));
      tasksRun.merge(path + " fresh", 1L, Long::sum);
      pauses.beginTask();
      try {
        fresh.write(object);
        byte[] bytes = new byte[fresh.length()];
        try (ReadPath.PositionalReader reader =
            paths.get(path).open(fresh.key(object), fresh.length())) {
          readFully(reader, bytes, fresh.key(object), 0);
        }
        reads.incrementAndGet();
        freshRead.incrementAndGet();
        if (!Arrays.equals(fresh.content(object), bytes)) {
          wrong.incrementAndGet();
          describe("wrong bytes: new object " + fresh.key(object) + " on " + path);
        }
      } catch (Throwable e) {
        failed(
            "new object "
                + fresh.key(object)
                + " on "
                + path
                + " failed: "
                + Store.rootMessage(e, 300));
      } finally {
        pauses.endTask();
        // The object is deleted on the store directly, not through the proxy.
        try {
          fresh.delete(object);
        } catch (RuntimeException e) {
          failed("new object " + fresh.key(object) + " not deleted: " + Store.rootMessage(e, 300));
        }
      }
      try {
        TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Whether {@code path} reads through Iceberg's FileIO, which declares every file immutable. */
  private static boolean declaresImmutable(Peer path) {
    return path.stack() == Peer.Stack.ICEBERG;
  }

  private void failed(String description) {
    failed.incrementAndGet();
    describe(description);
  }

  private void describe(String description) {
    if (failures.size() < DESCRIBED) {
      failures.add(description);
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
   * Four random ranges of an overwritten object in one stream: each must be the bytes of a version
   * written, all of the same version.
   */
  private boolean readOverwritten(ReadPath path, SplittableRandom random) throws IOException {
    int object = random.nextInt(versioned.count());
    Optional<byte[]> version = Optional.empty();
    try (ReadPath.PositionalReader reader = path.open(versioned.key(object), versioned.length())) {
      for (int i = 0; i < 4; i++) {
        int length = 1 + random.nextInt(256 * 1024);
        long position = random.nextLong(versioned.length() - length);
        byte[] bytes = new byte[length];
        reader.seek(position);
        readFully(reader, bytes, versioned.key(object), position);
        version = versioned.versionOf(object, position, bytes, version);
        if (version.isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }

  /** Fills {@code bytes} from {@code reader}, at {@code position} of the object {@code key}. */
  private static void readFully(
      ReadPath.PositionalReader reader, byte[] bytes, String key, long position)
      throws IOException {
    for (int done = 0; done < bytes.length; ) {
      int n = reader.read(bytes, done, bytes.length - done);
      if (n < 0) {
        throw new EOFException(key + " ended at " + (position + done));
      }
      done += n;
    }
  }
}
