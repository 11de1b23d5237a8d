package io.seekwell.bench.tpch;

import io.seekwell.bench.Options;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One Spark application of the TPC-H benchmark: {@code TpchRun} in a driver JVM of its own, reading
 * through one path from one endpoint, its rounds of the queries in order. Its lines and first-round
 * answers stay in the work directory ({@code PATH-NETWORK.tsv}, {@code PATH-NETWORK/qNN.txt}).
 */
final class TpchApplication {

  private final SparkDriver spark;
  private final Options options;
  private final TpchData data;
  private final int rounds;
  private final List<String> queries;
  private final Map<String, String> seekwell;
  private final int executorMemoryMb;
  private final Duration deadline;
  private final Path work;

  TpchApplication(
      SparkDriver spark,
      Options options,
      TpchData data,
      int rounds,
      List<String> queries,
      Map<String, String> seekwell,
      int executorMemoryMb,
      Duration deadline,
      Path work) {
    this.spark = spark;
    this.options = options;
    this.data = data;
    this.rounds = rounds;
    this.queries = queries;
    this.seekwell = seekwell;
    this.executorMemoryMb = executorMemoryMb;
    this.deadline = deadline;
    this.work = work;
  }

  /**
   * Runs the queries through {@code path} against {@code endpoint}, the store's counters read at
   * {@code counters} (none if null); {@code network} names the run in files and output.
   */
  List<TpchQueryRun> run(String path, String network, URI endpoint, URI counters)
      throws IOException, InterruptedException {
    String name = path + "-" + network;
    System.out.println("... TPC-H through " + path + " (" + network + ")");
    Path out = work.resolve(name + ".tsv");
    List<String> args = new ArrayList<>(data.arguments(endpoint, options));
    args.addAll(data.runArguments());
    args.addAll(
        List.of(
            "--path",
            path,
            "--rounds",
            String.valueOf(rounds),
            "--queries",
            queries.stream().map(query -> query.substring(1)).collect(Collectors.joining(",")),
            "--out",
            out.toString(),
            "--results",
            work.resolve(name).toString(),
            "--executor-memory-mb",
            String.valueOf(executorMemoryMb)));
    if (counters != null) {
      args.addAll(List.of("--counters", counters.toString()));
    }
    if (!seekwell.isEmpty()) {
      args.addAll(
          List.of(
              "--seekwell",
              seekwell.entrySet().stream()
                  .map(entry -> entry.getKey() + "=" + entry.getValue())
                  .collect(Collectors.joining(","))));
    }
    spark.run(name, SparkDriver.Format.of(path), "TpchRun", args, deadline);
    return TpchQueryRun.read(out);
  }

  /**
   * The names ({@code q01} …) of the queries of {@code spec}: numbers from 1 to 22 and ranges, such
   * as {@code 1-22} or {@code 1,6,10-12}.
   */
  static List<String> queryNames(String spec) {
    List<String> names = new ArrayList<>();
    for (String part : spec.split(",")) {
      String[] bounds = part.trim().split("-", -1);
      int first = queryNumber(bounds[0], spec);
      int last = bounds.length > 1 ? queryNumber(bounds[1], spec) : first;
      if (first > last || bounds.length > 2) {
        throw new IllegalArgumentException(
            "--queries takes numbers and ranges of 1 to 22: " + spec);
      }
      for (int query = first; query <= last; query++) {
        names.add(String.format(Locale.ROOT, "q%02d", query));
      }
    }
    return names;
  }

  private static int queryNumber(String text, String spec) {
    try {
      int number = Integer.parseInt(text.trim());
      if (number >= 1 && number <= 22) {
        return number;
      }
    } catch (NumberFormatException e) {
      // Named below.
    }
    throw new IllegalArgumentException("--queries takes numbers and ranges of 1 to 22: " + spec);
  }
}
