package io.seekwell.bench;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
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
 * projection of it through emulated S3 latency twice — with a plain SDK stream that sends one
 * ranged GET per read, and with Seekwell — and prints what each cost.
 *
 * <p>Arguments: {@code --endpoint URI} (the server, for uploads), {@code --toxiproxy URI} (its API;
 * omit for no emulated latency), {@code --access-key}, {@code --secret-key}, {@code --files N},
 * {@code --rows N}.
 */
public final class Demo {

  private static final String BUCKET = "seekwell-demo";
  private static final List<String> PROJECTION = List.of("m3", "m8", "m15");

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

    URI readEndpoint = endpoint;
    String profile = "loopback (no emulated latency)";
    if (options.has("toxiproxy")) {
      readEndpoint =
          new Toxiproxy(URI.create(options.required("toxiproxy"))).s3Profile("demo-s3", endpoint);
      profile = "s3 (25 ms to first byte, 90 MB/s per connection)";
    }

    progress("reading columns " + PROJECTION + " of every file with a plain SDK range-read stream");
    RequestCounter plainCounter = new RequestCounter();
    Result plain;
    try (S3Client s3 = Clients.sync(readEndpoint, credentials, plainCounter)) {
      plain =
          time(
              written,
              file ->
                  new RangeGetInputFile(
                      s3, BUCKET, file.getFileName().toString(), Files.size(file)));
    }

    progress("reading the same columns with Seekwell");
    RequestCounter seekwellCounter = new RequestCounter();
    Result seekwell;
    try (S3AsyncClient s3 = Clients.async(readEndpoint, credentials, seekwellCounter);
        S3SeekableInputStreamFactory factory =
            new S3SeekableInputStreamFactory(s3, S3SeekableInputStreamConfiguration.DEFAULT)) {
      seekwell =
          time(
              written,
              file ->
                  SeekwellInputFile.of(
                      factory, S3URI.of(BUCKET, file.getFileName().toString()), Files.size(file)));
    }
    if (plain.checksum() != seekwell.checksum()) {
      throw new IllegalStateException("The two reads returned different values");
    }

    System.out.println();
    System.out.println("Profile: " + profile);
    System.out.printf(Locale.ROOT, "%-28s %8s %10s %9s%n", "read path", "GETs", "MB", "seconds");
    row("plain SDK range reads", plainCounter, plain);
    row("Seekwell", seekwellCounter, seekwell);
    System.out.printf(
        Locale.ROOT,
        "Seekwell: %.1fx speed-up, %.1fx fewer GETs, same values (checksum %x)%n",
        plain.seconds() / seekwell.seconds(),
        (double) plainCounter.gets() / Math.max(1, seekwellCounter.gets()),
        seekwell.checksum());
  }

  /** What reading the projection of every file took, and a checksum of the values read. */
  private record Result(double seconds, long checksum) {}

  private interface InputFiles {
    InputFile open(Path file) throws IOException;
  }

  private static Result time(List<Path> files, InputFiles inputs) throws IOException {
    long start = System.nanoTime();
    long checksum = 0;
    for (Path file : files) {
      checksum = checksum * 31 + ParquetProjection.read(inputs.open(file), PROJECTION);
    }
    return new Result((System.nanoTime() - start) / 1e9, checksum);
  }

  private static void row(String name, RequestCounter counter, Result result) {
    System.out.printf(
        Locale.ROOT,
        "%-28s %8d %10.1f %9.2f%n",
        name,
        counter.gets(),
        counter.bytes() / 1e6,
        result.seconds());
  }

  private static void progress(String step) {
    System.out.println("... " + step);
  }
}
