package io.seekwell.bench.rate;

import io.seekwell.bench.Options;
import io.seekwell.bench.rate.RequestRateBenchmark.Result;
import io.seekwell.bench.report.MarkdownTable;
import io.seekwell.bench.report.RunHeader;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The request-rate benchmark's report: how it measured, then a row per path and thread count. */
final class RateReport {

  private RateReport() {}

  /** One result as a line of the report's table, as the benchmark prints it while it runs. */
  static String row(Result result) {
    return MarkdownTable.line(cells(result));
  }

  private static List<String> cells(Result result) {
    long[] latencies = result.latencies().clone();
    Arrays.sort(latencies);
    double seconds = result.seconds();
    long gets = result.gets();
    if (result.store() != null) {
      return List.of(
          result.path(),
          String.valueOf(result.threads()),
          format("%.0f", result.reads() / seconds),
          format("%.0f", result.store().answered() / seconds),
          format("%.0f %%", 100 * result.store().answered() / seconds / result.store().limit()),
          format("%.0f", result.store().throttled() / seconds),
          String.valueOf(result.failures()),
          format("%.1f", percentile(latencies, 0.50) / 1e6),
          format("%.1f", percentile(latencies, 0.99) / 1e6));
    }
    return List.of(
        result.path(),
        String.valueOf(result.threads()),
        format("%.0f", result.reads() / seconds),
        format("%.0f", gets / seconds),
        format("%.2f", percentile(latencies, 0.50) / 1e6),
        format("%.2f", percentile(latencies, 0.99) / 1e6),
        format("%.3f", gets == 0 ? 0 : result.cpuNanos() / 1e6 / gets),
        format("%.1f", gets == 0 ? 0 : result.allocated() / 1024.0 / gets),
        format("%.1f", gets == 0 ? 0 : result.bytes() / 1024.0 / gets));
  }

  private static String format(String format, double value) {
    return String.format(Locale.ROOT, format, value);
  }

  /** The latency at {@code fraction} of the sorted {@code latencies}, or 0 if there is none. */
  private static double percentile(long[] latencies, double fraction) {
    return latencies.length == 0
        ? 0
        : latencies[Math.min(latencies.length - 1, (int) (fraction * latencies.length))];
  }

  /**
   * The report of {@code results}: how they were measured, then a row per path and thread count.
   */
  static String markdown(List<Result> results, Options options) {
    boolean throttled = options.decimal("throttle", 0) > 0;
    StringBuilder out =
        new StringBuilder(throttled ? "## Under throttling\n\n" : "# Request rate\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%s, MinIO on loopback. Each thread reads 4 KiB at a random"
                + " place of a random one of %s objects of %s MiB, through a stream opened for the"
                + " read; %s s measured after 2 s of warm-up, a fresh client and factory per run;"
                + " the first thread count after an unmeasured run of every path (the JVM's"
                + " warm-up), the measured runs taking the paths rotated by one."
                + " Seekwell's and AAL's caches are bounded to %s MiB (AAL's bound is swept every"
                + " 5 s rather than enforced), so that most reads miss.",
            RunHeader.runOn(),
            options.text("objects", "64"),
            options.text("object-mb", "16"),
            options.text("seconds", "10"),
            options.text("memory-mb", "64")));
    MarkdownTable table;
    if (throttled) {
      out.append(
          String.format(
              Locale.ROOT,
              " The store is behind a proxy that holds each request %s ms (S3's time to first"
                  + " byte) and answers 503 SlowDown to the requests over %s a second, as S3 does"
                  + " while a prefix scales. *Answered/s* is the requests the store answered per"
                  + " second, *of the limit* that over its rate, *throttled/s* the 503s per"
                  + " second; a failed read is one that gave up. AAL does not retry a 503 itself"
                  + " and reads through a client with the SDK's default retries (3 attempts);"
                  + " Seekwell with its own (5 attempts, its adaptive concurrency limit). Latency"
                  + " is of the reads that succeeded.\n\n",
              options.text("store-latency-ms", "25"),
              options.required("throttle")));
      table =
          new MarkdownTable(
              "path",
              "threads",
              "reads/s",
              "answered/s",
              "of the limit",
              "throttled/s",
              "failed reads",
              "p50 ms",
              "p99 ms");
    } else {
      out.append(
          " Latency is the open, read and close; CPU is this JVM's, per GET; allocation is what"
              + " this JVM's threads allocated, per GET.\n\n");
      table =
          new MarkdownTable(
              "path",
              "threads",
              "reads/s",
              "GETs/s",
              "p50 ms",
              "p99 ms",
              "CPU ms/GET",
              "KiB allocated/GET",
              "KiB/GET");
    }
    results.forEach(result -> table.row(cells(result)));
    return out.append(table).toString();
  }
}
