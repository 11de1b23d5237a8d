package io.seekwell.bench.demo;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.bench.Options;
import io.seekwell.bench.Progress;
import io.seekwell.bench.paths.RangeGetInputFile;
import io.seekwell.bench.report.Spread;
import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.RequestCounter;
import io.seekwell.bench.store.Store;
import io.seekwell.bench.store.Toxiproxy;
import io.seekwell.bench.workloads.ParquetProjection;
import io.seekwell.bench.workloads.SampleTable;
import io.seekwell.parquet.connector.SeekwellInputFile;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.parquet.io.InputFile;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The README demo: writes a small Parquet table to a local S3-compatible server, then reads a
 * projection of it through emulated S3 latency with a plain SDK stream that sends one ranged GET
 * per read, and with Seekwell, each once untimed and then five times timed, and prints what each
 * cost: the median and range of the times, and the speed-up as the ratio of the medians.
 *
 * <p>Arguments: {@code --endpoint URI} (the server, for uploads), {@code --toxiproxy URI} (its API;
 * omit for no emulated latency), {@code --access-key}, {@code --secret-key}, {@code --files N},
 * {@code --rows N}.
 */
public final class Demo {

  private static final String BUCKET = "seekwell-demo";
  private static final List<String> PROJECTION = List.of("m3", "m8", "m15");

  /** The timed reads of each path, after one read that is not timed. */
  private static final int ITERATIONS = 5;

  private Demo() {}

  public static void main(String[] args) throws Exception {
    Options options = Options.parse("Demo", Set.of("files", "rows", "toxiproxy"), args);
    URI endpoint = Store.endpoint(options);
    int files = options.integer("files", 4);
    int rows = options.integer("rows", 200_000);
    StaticCredentialsProvider credentials = Store.credentials(options);

    Path dir = Files.createTempDirectory("seekwell-demo-");
    List<Path> written = new ArrayList<>();
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      progress(
          "writing a sample table: "
              + files
              + " Parquet files, "
              + SampleTable.COLUMNS
              + " columns");
      admin.createBucket(b -> b.bucket(BUCKET));
      Progress progress = Progress.of("writing the sample table", () -> Progress.megabytesIn(dir));
      try {
        for (int i = 0; i < files; i++) {
          Path file = SampleTable.write(dir.resolve("part-" + i + ".parquet"), rows, 8L << 20, i);
          admin.putObject(
              b -> b.bucket(BUCKET).key(file.getFileName().toString()), RequestBody.fromFile(file));
          written.add(file);
        }
      } finally {
        progress.close();
      }
    }

    boolean emulated = options.has("toxiproxy");
    URI readEndpoint =
        emulated
            ? new Toxiproxy(URI.create(options.required("toxiproxy")))
                .s3Profile("demo-s3", endpoint)
            : endpoint;
    String profile =
        emulated
            ? "s3 (25 ms to first byte, 90 MB/s per connection)"
            : "loopback (no emulated latency)";
    String times = ": 1 warm-up, then " + ITERATIONS + " timed reads";

    progress(
        "reading columns "
            + PROJECTION
            + " of every file with a plain SDK range-read stream"
            + times);
    List<Run> plain =
        measure(
            counter -> {
              try (S3Client s3 = Clients.sync(readEndpoint, credentials, counter)) {
                return time(
                    written,
                    file ->
                        new RangeGetInputFile(
                            s3, BUCKET, file.getFileName().toString(), Files.size(file)));
              }
            });

    progress("reading the same columns with Seekwell" + times);
    List<Run> seekwell =
        measure(
            counter -> {
              try (S3AsyncClient s3 = Clients.async(readEndpoint, credentials, counter);
                  S3SeekableInputStreamFactory factory =
                      new S3SeekableInputStreamFactory(
                          s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
                return time(
                    written,
                    file ->
                        SeekwellInputFile.of(
                            factory,
                            S3URI.of(BUCKET, file.getFileName().toString()),
                            Files.size(file)));
              }
            });
    long checksum = plain.get(0).checksum();
    if (seekwell.get(0).checksum() != checksum) {
      throw new IllegalStateException("The two reads returned different values");
    }

    Spread plainSeconds = Spread.of(plain, Run::seconds);
    Spread seekwellSeconds = Spread.of(seekwell, Run::seconds);
    System.out.println();
    System.out.println("Profile: " + profile);
    System.out.printf(
        Locale.ROOT,
        "Each path: 1 warm-up read, then %d timed reads, each with new clients%n",
        ITERATIONS);
    System.out.printf(
        Locale.ROOT,
        "%-28s %8s %10s   %s%n",
        "read path",
        "GETs",
        "MB",
        "seconds: median (min–max)");
    row("plain SDK range reads", plain);
    row("Seekwell", seekwell);
    System.out.printf(
        Locale.ROOT,
        "Seekwell: %.1fx speed-up (ratio of the medians; %.1fx–%.1fx from the ranges),"
            + " %.1fx fewer GETs%n",
        plainSeconds.median() / seekwellSeconds.median(),
        plainSeconds.min() / seekwellSeconds.max(),
        plainSeconds.max() / seekwellSeconds.min(),
        Spread.median(plain, Run::gets) / Math.max(1, Spread.median(seekwell, Run::gets)));
    System.out.printf(
        Locale.ROOT, "Same values in all %d reads (checksum %x)%n", 2 * (ITERATIONS + 1), checksum);
  }

  /** What reading the projection of every file took, and a checksum of the values read. */
  private record Result(double seconds, long checksum) {}

  /** One timed read of every file, with the GETs and body bytes its client counted. */
  private record Run(double seconds, long gets, long bytes, long checksum) {}

  /** One read of every file through clients of its own, which count with {@code counter}. */
  private interface Pass {
    Result read(RequestCounter counter) throws IOException;
  }

  private interface InputFiles {
    InputFile open(Path file) throws IOException;
  }

  /**
   * Runs {@code pass} once untimed (a real read, which warms the JIT and the store), then {@link
   * #ITERATIONS} times timed. Each pass has clients (and for Seekwell a factory and cache) of its
   * own, so every one starts cold; each must return the values the first one returned.
   */
  private static List<Run> measure(Pass pass) throws IOException {
    long expected = pass.read(new RequestCounter()).checksum();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < ITERATIONS; i++) {
      RequestCounter counter = new RequestCounter();
      Result result = pass.read(counter);
      if (result.checksum() != expected) {
        throw new IllegalStateException("Two reads of one path returned different values");
      }
      runs.add(new Run(result.seconds(), counter.gets(), counter.bytes(), result.checksum()));
    }
    return runs;
  }

  private static Result time(List<Path> files, InputFiles inputs) throws IOException {
    long start = System.nanoTime();
    long checksum = 0;
    for (Path file : files) {
      checksum = checksum * 31 + ParquetProjection.read(inputs.open(file), PROJECTION);
    }
    return new Result((System.nanoTime() - start) / 1e9, checksum);
  }

  /** The median GETs and megabytes of one read, and the median and range of its seconds. */
  private static void row(String name, List<Run> runs) {
    System.out.printf(
        Locale.ROOT,
        "%-28s %8.0f %10.1f   %s%n",
        name,
        Spread.median(runs, Run::gets),
        Spread.median(runs, Run::bytes) / 1e6,
        Spread.of(runs, Run::seconds).cell());
  }

  private static void progress(String step) {
    System.out.println("... " + step);
  }
}
