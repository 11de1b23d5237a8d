package io.seekwell.bench.faults;

import io.seekwell.bench.Options;
import io.seekwell.bench.Quiet;
import io.seekwell.bench.Runner;
import io.seekwell.bench.paths.Peer;
import io.seekwell.bench.paths.SeekwellSettings;
import io.seekwell.bench.report.FaultSection;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.ToxiproxyServer;
import io.seekwell.bench.workloads.ColdRead;
import io.seekwell.bench.workloads.Dataset;
import io.seekwell.bench.workloads.Sample;
import io.seekwell.bench.workloads.Workload;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The fault benchmark: every read path side by side while a {@link FaultProxy} (in front of the
 * emulated S3 latency) stalls, cuts (FIN or RST) or slows the first byte of a share of the
 * connections, one fault kind at a time. Each iteration's outcome is reported: the right result, a
 * wrong one, a failure, or still running at the deadline (then abandoned).
 *
 * <p>Arguments as {@link io.seekwell.bench.reads.Benchmark}'s, plus {@code --faults
 * stall,cut-fin,cut-rst,slow-first-byte}, {@code --fractions 0.02,0.25}, {@code --deadline SECONDS}
 * (per iteration, default 90), {@code --seekwell key=value,…} (Seekwell settings of its paths, as
 * the read benchmark takes them). Paths default to {@code seekwell}, every peer that reads more
 * than ORC, and Seekwell's connectors (seven: {@code seekwell,aal,iceberg-default,s3a-classic,
 * s3a-analytics,seekwell-iceberg,seekwell-s3a}); workloads to W1, W6, the task group W9 and the
 * parallel projections W13. The tables replace the section between the fault markers of the report
 * (docs/benchmarks.md by default), so the main benchmark's tables stay. Ends with an error if a
 * Seekwell path ever returned a wrong result.
 */
public final class FaultBenchmark {

  /** The options this benchmark takes besides the store's. */
  static final Set<String> OPTIONS =
      Set.of(
          "toxiproxy-server",
          "scale",
          "iterations",
          "deadline",
          "paths",
          "workloads",
          "faults",
          "fractions",
          "seekwell",
          "report",
          "data",
          "smoke");

  private FaultBenchmark() {}

  /** How one iteration ended. */
  enum Outcome {
    RIGHT,
    WRONG,
    FAILED,
    STILL_RUNNING
  }

  /**
   * One iteration: how it ended, its sample if it finished, and whether an abandoned iteration's
   * connections still came when it began ({@link LeftoverConnections}).
   */
  record Run(Outcome outcome, Sample sample, String failure, boolean overlapped) {}

  /** A fault kind at a share of the connections; {@code fault == null} is the healthy network. */
  record Condition(ConnectionFault fault, String name, double fraction) {
    String label() {
      return fault == null
          ? "no fault"
          : String.format(Locale.ROOT, "%s %.0f %%", name, fraction * 100);
    }
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("FaultBenchmark", OPTIONS, args);
    URI endpoint = Store.endpoint(options);
    Path out = Path.of(options.text("report", "docs/benchmarks.md"));
    ToxiproxyServer toxiproxy = Store.toxiproxy(options, endpoint);
    try (FaultProxy proxy = FaultProxy.start(toxiproxy != null ? toxiproxy.endpoint() : endpoint)) {
      run(options, endpoint, toxiproxy, proxy, out);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static List<Condition> conditions(Options options) {
    List<Condition> conditions = new ArrayList<>();
    conditions.add(new Condition(null, "no fault", 0));
    List<Double> fractions = options.list("fractions", "0.02,0.25", "numbers", Double::valueOf);
    for (String name : options.list("faults", "stall,cut-fin,cut-rst,slow-first-byte")) {
      ConnectionFault fault =
          switch (name.trim()) {
            case "stall" -> ConnectionFault.STALL_BEFORE_HEADERS;
            case "stall-body" -> ConnectionFault.STALL_BODY;
            case "cut-fin" -> ConnectionFault.CUT_FIN;
            case "cut-rst" -> ConnectionFault.CUT_RST;
            case "slow-first-byte" -> ConnectionFault.SLOW_FIRST_BYTE;
            default -> throw new IllegalArgumentException("Unknown fault: " + name);
          };
      for (double fraction : fractions) {
        conditions.add(new Condition(fault, name.trim(), fraction));
      }
    }
    return conditions;
  }

  private static void run(
      Options options, URI endpoint, ToxiproxyServer toxiproxy, FaultProxy proxy, Path out)
      throws IOException, InterruptedException {
    StaticCredentialsProvider credentials = Store.credentials(options);
    Dataset.Scale scale = Dataset.Scale.of(options);
    int iterations = options.integer("iterations", 3);
    long deadlineSeconds = options.longInteger("deadline", 90);
    List<String> paths = options.list("paths", defaultPaths());
    List<Workload> workloads =
        options.list("workloads", "W1,W6,W9,W13", "a workload", Workload::valueOf);
    List<Condition> conditions = conditions(options);
    Dataset data;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      data = Dataset.prepare(admin, Path.of(options.text("data", ".tools/bench-data")), scale);
    }
    Map<String, String> seekwell = SeekwellSettings.of(options);
    FaultReport report = new FaultReport(options, scale, iterations, deadlineSeconds, paths);
    LeftoverConnections leftovers = new LeftoverConnections(proxy, Thread::sleep);
    AtomicBoolean lastAbandoned = new AtomicBoolean();
    ExecutorService runs =
        Executors.newCachedThreadPool(
            task -> {
              Thread thread = new Thread(task, "fault-benchmark-run");
              thread.setDaemon(true);
              return thread;
            });
    try {
      for (Workload workload : workloads) {
        // One unmeasured run per path first, so that no path pays for the JVM's warm-up.
        proxy.stopFaultingConnections();
        new Runner(paths, 1, 0, Runner.Order.AS_GIVEN)
            .run(
                (path, round) -> {
                  System.out.printf(Locale.ROOT, "... %s %s, warm-up%n", workload, path);
                  return ColdRead.measure(workload, path, data, proxy.uri(), credentials, seekwell);
                },
                (path, error) ->
                    System.out.println("... warm-up failed: " + Store.rootMessage(error, 160)));
        Checksum expected = new Checksum();
        for (Condition condition : conditions) {
          Map<String, List<Run>> byPath =
              new Runner(paths, 0, iterations, Runner.Order.AS_GIVEN)
                  .run(
                      (path, iteration) -> {
                        if (toxiproxy != null) {
                          toxiproxy.restart();
                        }
                        boolean overlapped = !leftovers.end(lastAbandoned.get());
                        if (overlapped) {
                          System.out.println(
                              "... connections still come a minute after the last iteration:"
                                  + " this one is marked as overlapping an abandoned one");
                        }
                        Quiet.await();
                        if (condition.fault() == null) {
                          proxy.stopFaultingConnections();
                        } else {
                          proxy.faultConnections(
                              condition.fault(),
                              condition.fraction(),
                              7919L * iteration + path.hashCode());
                        }
                        System.out.printf(
                            Locale.ROOT,
                            "... %s %s, %s, iteration %d of %d%n",
                            workload,
                            path,
                            condition.label(),
                            iteration,
                            iterations);
                        URI through = proxy.uri();
                        Run result =
                            runWithin(
                                runs,
                                () ->
                                    ColdRead.measure(
                                        workload, path, data, through, credentials, seekwell),
                                deadlineSeconds,
                                expected,
                                path,
                                overlapped);
                        lastAbandoned.set(result.outcome() == Outcome.STILL_RUNNING);
                        System.out.println("... " + describe(result));
                        return result;
                      });
          report.add(workload, condition, byPath);
          FaultSection.write(out, report.markdown());
        }
      }
    } finally {
      proxy.dropConnections();
      runs.shutdownNow();
    }
    String markdown = report.markdown();
    FaultSection.write(out, markdown);
    System.out.println(markdown);
    System.out.println("Fault tables written to " + out);
    List<String> wrong = report.seekwellWrongResults();
    if (!wrong.isEmpty()) {
      throw new IllegalStateException("Seekwell returned a wrong result: " + wrong);
    }
  }

  /**
   * The paths measured unless {@code --paths} names others: Seekwell's own, every peer that reads
   * more than ORC, and Seekwell's connectors.
   */
  private static String defaultPaths() {
    return Stream.of(
            Stream.of(Peer.SEEKWELL),
            Arrays.stream(Peer.values()).filter(peer -> !peer.isSeekwell() && !peer.orcOnly()),
            Peer.connectors().stream())
        .flatMap(paths -> paths)
        .map(Peer::pathName)
        .collect(Collectors.joining(","));
  }

  /** The checksum of a workload's first finished iteration, which every other must match. */
  private static final class Checksum {
    private Long expected;

    Outcome of(Sample sample) {
      if (expected == null) {
        expected = sample.checksum();
      }
      return sample.checksum() == expected ? Outcome.RIGHT : Outcome.WRONG;
    }
  }

  /**
   * One iteration of {@code measurement} on {@code runs}, given {@code deadlineSeconds}: right or
   * wrong by {@code expected}, failed, or abandoned still running; {@code overlapped} if an
   * abandoned iteration's connections still came when it began.
   */
  private static Run runWithin(
      ExecutorService runs,
      Callable<Sample> measurement,
      long deadlineSeconds,
      Checksum expected,
      String path,
      boolean overlapped)
      throws InterruptedException {
    Future<Sample> measured = runs.submit(measurement);
    try {
      Sample sample = measured.get(deadlineSeconds, TimeUnit.SECONDS);
      return new Run(expected.of(sample), sample, null, overlapped);
    } catch (TimeoutException e) {
      measured.cancel(true);
      return new Run(Outcome.STILL_RUNNING, null, null, overlapped);
    } catch (ExecutionException e) {
      if (Peer.namesSeekwell(path)) {
        // Seekwell is expected to survive every fault here: show the whole chain.
        e.getCause().printStackTrace(System.out);
      }
      return new Run(Outcome.FAILED, null, Store.rootMessage(e, 160), overlapped);
    }
  }

  private static String describe(Run run) {
    return switch (run.outcome()) {
      case RIGHT, WRONG ->
          String.format(
              Locale.ROOT,
              "%s in %.2f s, %d GETs",
              run.outcome().name().toLowerCase(Locale.ROOT),
              run.sample().seconds(),
              run.sample().gets());
      case FAILED -> "failed: " + run.failure();
      case STILL_RUNNING -> "still running at the deadline, abandoned";
    };
  }
}
