package io.seekwell.bench;

import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.FaultProxy.ConnectionFault;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The fault benchmark: every read path side by side while a {@link FaultProxy} (in front of the
 * emulated S3 latency) stalls, cuts (FIN or RST) or slows the first byte of a share of the
 * connections, one fault kind at a time. Each iteration's outcome is reported: the right result, a
 * wrong one, a failure, or still running at the deadline (then abandoned).
 *
 * <p>Arguments as {@link Benchmark}'s, plus {@code --faults stall,cut-fin,cut-rst,slow-first-byte},
 * {@code --fractions 0.02,0.25}, {@code --deadline SECONDS} (per iteration, default 90), {@code
 * --seekwell key=value,…} (Seekwell settings of its paths, as {@link Benchmark} takes them). Paths
 * default to all six: {@code seekwell,aal,iceberg-default,s3a-classic,seekwell-iceberg,
 * seekwell-s3a}; workloads to W1, W6, the task group W9 and the parallel projections W13. The
 * tables replace the section between the fault markers of the report (docs/benchmarks.md by
 * default), so the main benchmark's tables stay. Ends with an error if a Seekwell path ever
 * returned a wrong result.
 */
public final class FaultBenchmark {

  static final String START_MARKER = "<!-- fault-benchmark:start -->";
  static final String END_MARKER = "<!-- fault-benchmark:end -->";

  private FaultBenchmark() {}

  /** How one iteration ended. */
  enum Outcome {
    RIGHT,
    WRONG,
    FAILED,
    STILL_RUNNING
  }

  /** One iteration: how it ended, and its sample if it finished. */
  record Run(Outcome outcome, Benchmark.Sample sample, String failure) {}

  /** A fault kind at a share of the connections; {@code fault == null} is the healthy network. */
  record Condition(ConnectionFault fault, String name, double fraction) {
    String label() {
      return fault == null
          ? "no fault"
          : String.format(Locale.ROOT, "%s %.0f %%", name, fraction * 100);
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = Options.parse(args);
    URI endpoint = URI.create(Options.required(options, "endpoint"));
    Path out = Path.of(options.getOrDefault("report", "docs/benchmarks.md"));
    ToxiproxyServer toxiproxy = Benchmark.toxiproxy(options, endpoint);
    try (FaultProxy proxy = FaultProxy.start(toxiproxy != null ? toxiproxy.endpoint() : endpoint)) {
      run(options, endpoint, toxiproxy, proxy, out);
    } finally {
      if (toxiproxy != null) {
        toxiproxy.close();
      }
    }
  }

  private static List<Condition> conditions(Map<String, String> options) {
    List<Condition> conditions = new ArrayList<>();
    conditions.add(new Condition(null, "no fault", 0));
    List<Double> fractions =
        Arrays.stream(options.getOrDefault("fractions", "0.02,0.25").split(","))
            .map(String::trim)
            .map(Double::parseDouble)
            .toList();
    for (String name :
        options.getOrDefault("faults", "stall,cut-fin,cut-rst,slow-first-byte").split(",")) {
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
      Map<String, String> options,
      URI endpoint,
      ToxiproxyServer toxiproxy,
      FaultProxy proxy,
      Path out)
      throws IOException, InterruptedException {
    StaticCredentialsProvider credentials = Benchmark.credentials(options);
    Dataset.Scale scale =
        Dataset.Scale.valueOf(options.getOrDefault("scale", "full").toUpperCase(Locale.ROOT));
    int iterations = Integer.parseInt(options.getOrDefault("iterations", "3"));
    long deadlineSeconds = Long.parseLong(options.getOrDefault("deadline", "90"));
    List<String> paths =
        Arrays.stream(
                options
                    .getOrDefault(
                        "paths",
                        "seekwell,aal,iceberg-default,s3a-classic,seekwell-iceberg,seekwell-s3a")
                    .split(","))
            .map(String::trim)
            .toList();
    List<Workload> workloads =
        Arrays.stream(options.getOrDefault("workloads", "W1,W6,W9,W13").split(","))
            .map(name -> Workload.valueOf(name.trim()))
            .toList();
    List<Condition> conditions = conditions(options);
    Dataset data;
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      data =
          Dataset.prepare(admin, Path.of(options.getOrDefault("data", ".tools/bench-data")), scale);
    }
    Map<String, String> seekwell = Benchmark.settings(options.getOrDefault("seekwell", ""));
    Map<Workload, Map<String, Map<Condition, List<Run>>>> results = new LinkedHashMap<>();
    ExecutorService runner =
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
        for (String path : paths) {
          System.out.printf(Locale.ROOT, "... %s %s, warm-up%n", workload, path);
          try {
            Benchmark.measure(workload, path, data, proxy.uri(), credentials, seekwell);
          } catch (IOException | RuntimeException e) {
            System.out.println("... warm-up failed: " + rootMessage(e));
          }
        }
        Long expected = null;
        Map<String, Map<Condition, List<Run>>> byPath = new LinkedHashMap<>();
        results.put(workload, byPath);
        for (Condition condition : conditions) {
          for (int iteration = 1; iteration <= iterations; iteration++) {
            for (String path : paths) {
              if (toxiproxy != null) {
                toxiproxy.restart();
              }
              proxy.dropConnections();
              Quiet.await();
              if (condition.fault() == null) {
                proxy.stopFaultingConnections();
              } else {
                proxy.faultConnections(
                    condition.fault(), condition.fraction(), 7919L * iteration + path.hashCode());
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
              Future<Benchmark.Sample> measured =
                  runner.submit(
                      () ->
                          Benchmark.measure(workload, path, data, through, credentials, seekwell));
              Run result;
              try {
                Benchmark.Sample sample = measured.get(deadlineSeconds, TimeUnit.SECONDS);
                if (expected == null) {
                  expected = sample.checksum();
                }
                result =
                    new Run(
                        sample.checksum() == expected ? Outcome.RIGHT : Outcome.WRONG,
                        sample,
                        null);
              } catch (TimeoutException e) {
                measured.cancel(true);
                result = new Run(Outcome.STILL_RUNNING, null, null);
              } catch (ExecutionException e) {
                result = new Run(Outcome.FAILED, null, rootMessage(e));
                if (path.startsWith("seekwell")) {
                  // Seekwell is expected to survive every fault here: show the whole chain.
                  e.getCause().printStackTrace(System.out);
                }
              }
              System.out.println("... " + describe(result));
              byPath
                  .computeIfAbsent(path, p -> new LinkedHashMap<>())
                  .computeIfAbsent(condition, c -> new ArrayList<>())
                  .add(result);
            }
          }
          write(out, report(results, options, scale, iterations, deadlineSeconds, paths));
        }
      }
    } finally {
      proxy.dropConnections();
      runner.shutdownNow();
    }
    String report = report(results, options, scale, iterations, deadlineSeconds, paths);
    write(out, report);
    System.out.println(report);
    System.out.println("Fault tables written to " + out);
    List<String> wrong = new ArrayList<>();
    results.forEach(
        (workload, byPath) ->
            byPath.forEach(
                (path, byCondition) ->
                    byCondition.forEach(
                        (condition, runs) -> {
                          if (path.startsWith("seekwell")
                              && runs.stream().anyMatch(r -> r.outcome() == Outcome.WRONG)) {
                            wrong.add(workload + " " + path + " " + condition.label());
                          }
                        })));
    if (!wrong.isEmpty()) {
      throw new IllegalStateException("Seekwell returned a wrong result: " + wrong);
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

  private static String rootMessage(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return message.length() > 160 ? message.substring(0, 160) + "…" : message;
  }

  /**
   * {@code report} followed by the fault section {@code out} has now, if any: so that a run of the
   * main benchmark, which rewrites the whole report, keeps the fault tables.
   */
  static String keepingFaultSection(Path out, String report) throws IOException {
    String existing = Files.exists(out) ? Files.readString(out) : "";
    int start = existing.indexOf(START_MARKER);
    int end = existing.indexOf(END_MARKER);
    return start >= 0 && end > start
        ? report + "\n" + existing.substring(start, end + END_MARKER.length()) + "\n"
        : report;
  }

  /** Writes {@code tables} between the markers of {@code out}, or appends them with markers. */
  static void write(Path out, String tables) throws IOException {
    String section = START_MARKER + "\n" + tables + END_MARKER + "\n";
    String existing = Files.exists(out) ? Files.readString(out) : "";
    int start = existing.indexOf(START_MARKER);
    int end = existing.indexOf(END_MARKER);
    String updated =
        start >= 0 && end > start
            ? existing.substring(0, start)
                + section
                + existing.substring(end + END_MARKER.length() + 1)
            : existing + (existing.isEmpty() || existing.endsWith("\n\n") ? "" : "\n") + section;
    Files.writeString(out, updated);
  }

  private static String report(
      Map<Workload, Map<String, Map<Condition, List<Run>>>> results,
      Map<String, String> options,
      Dataset.Scale scale,
      int iterations,
      long deadlineSeconds,
      List<String> paths) {
    StringBuilder md = new StringBuilder();
    md.append("## Faults\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Every read path with one fault kind at a time on a share of the connections, injected"
                + " by a proxy in front of the emulated S3 network (profile `%s`, scale `%s`): a"
                + " stall (the connection sends nothing and stays open), a cut after 4 KiB with FIN"
                + " or with RST, or a first byte 1.5 s late. Under a fault the proxy asks the store to"
                + " close each connection after its response, so every request gets a connection,"
                + " and a fault drawn, of its own. Each path runs once unmeasured first. Iterations per cell: %d, each cold; an iteration still running"
                + " after %d s is abandoned. Each cell: median seconds of the iterations with the"
                + " right result, then how the iterations ended (✓ right, ✗ wrong result, F failed,"
                + " T still running at the deadline).\n\n",
            options.getOrDefault("profile", "s3"),
            scale.name().toLowerCase(Locale.ROOT),
            iterations,
            deadlineSeconds));
    md.append("Reproduce: `./scripts/bench.sh --profile faults");
    if (scale == Dataset.Scale.QUICK) {
      md.append(" --quick");
    }
    for (String option :
        List.of("paths", "workloads", "faults", "fractions", "iterations", "deadline")) {
      if (options.containsKey(option)) {
        md.append(" --").append(option).append(' ').append(options.get(option));
      }
    }
    md.append("`\n\n");
    for (Map.Entry<Workload, Map<String, Map<Condition, List<Run>>>> workload :
        results.entrySet()) {
      md.append("### ")
          .append(workload.getKey())
          .append(": ")
          .append(workload.getKey().description)
          .append("\n\n");
      List<Condition> conditions =
          workload.getValue().values().stream()
              .flatMap(byCondition -> byCondition.keySet().stream())
              .distinct()
              .toList();
      md.append("| path |");
      conditions.forEach(condition -> md.append(' ').append(condition.label()).append(" |"));
      md.append("\n|---|");
      conditions.forEach(condition -> md.append("---|"));
      md.append('\n');
      for (String path : paths) {
        Map<Condition, List<Run>> byCondition = workload.getValue().get(path);
        if (byCondition == null) {
          continue;
        }
        md.append("| ").append(path).append(" |");
        for (Condition condition : conditions) {
          md.append(' ').append(cell(byCondition.get(condition))).append(" |");
        }
        md.append('\n');
      }
      md.append('\n');
      md.append(hedgeLine(workload.getValue()));
    }
    return md.toString();
  }

  private static String cell(List<Run> runs) {
    if (runs == null || runs.isEmpty()) {
      return "–";
    }
    double[] seconds =
        runs.stream()
            .filter(run -> run.outcome() == Outcome.RIGHT)
            .mapToDouble(run -> run.sample().seconds())
            .sorted()
            .toArray();
    StringBuilder outcomes = new StringBuilder();
    for (Run run : runs) {
      outcomes.append(
          switch (run.outcome()) {
            case RIGHT -> "✓";
            case WRONG -> "✗";
            case FAILED -> "F";
            case STILL_RUNNING -> "T";
          });
    }
    String median =
        seconds.length == 0
            ? "–"
            : String.format(
                Locale.ROOT,
                "%.2f s",
                seconds.length % 2 == 1
                    ? seconds[seconds.length / 2]
                    : (seconds[seconds.length / 2 - 1] + seconds[seconds.length / 2]) / 2);
    return median + " " + outcomes;
  }

  /** The share of GETs that were hedges, for the paths that report it, with no fault. */
  private static String hedgeLine(Map<String, Map<Condition, List<Run>>> byPath) {
    StringBuilder line = new StringBuilder();
    for (Map.Entry<String, Map<Condition, List<Run>>> path : byPath.entrySet()) {
      for (Map.Entry<Condition, List<Run>> condition : path.getValue().entrySet()) {
        if (condition.getKey().fault() != null) {
          continue;
        }
        long gets = 0;
        long hedges = 0;
        for (Run run : condition.getValue()) {
          if (run.sample() != null && run.sample().hedges() >= 0) {
            gets += run.sample().gets();
            hedges += run.sample().hedges();
          }
        }
        if (gets > 0) {
          line.append(
              String.format(
                  Locale.ROOT,
                  "%s%s: %d hedged of %d GETs (%.1f %%)",
                  line.length() == 0 ? "Hedged GETs with no fault: " : "; ",
                  path.getKey(),
                  hedges,
                  gets,
                  100.0 * hedges / gets));
        }
      }
    }
    return line.length() == 0 ? "" : line.append(".\n\n").toString();
  }
}
