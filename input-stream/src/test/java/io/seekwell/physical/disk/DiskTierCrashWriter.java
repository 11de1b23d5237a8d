package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

/**
 * Another process for {@link DiskTierCrashTest}: reads random ranges of {@link #OBJECTS} immutable
 * objects, more than the disk tier's slot holds, so that its writer and eviction never rest, until
 * it is killed. Its arguments: the directory and a seed. It says {@code ready <n>} once its disk
 * tier is open ({@code n}: the factories that found it unavailable), then after every read {@code
 * read <bytes the disk tier served> <bytes it wrote> <granules found bad>} (so far), and {@code
 * wrong <object> <range>} before exiting with status 3 if a read returns a byte that is not the
 * object's.
 */
public final class DiskTierCrashWriter {

  static final int OBJECTS = 24;
  static final int OBJECT_LENGTH = 768 * 1024 + 4321;

  /** The slot's bound: a third of the objects. */
  static final long SLOT_BYTES = 6L << 20;

  private static final int MIB = 1024 * 1024;
  static final FetchContext IMMUTABLE = Contexts.IMMUTABLE;

  private DiskTierCrashWriter() {}

  /** The objects' location and content, the same in every process. */
  static ObjectLocation location(int object) {
    return ObjectLocation.of("bucket", "crash/" + object + ".parquet");
  }

  static byte[] content(int object) {
    return TestData.randomBytes(1000 + object, OBJECT_LENGTH);
  }

  /** The disk tier every process of the test opens: one slot, so a new one must take the dead's. */
  static DiskCacheConfiguration disk(Path directory) {
    return DiskCacheConfiguration.in(directory, SLOT_BYTES, 1);
  }

  /** Block memory far smaller than the objects, so reads keep going to the disk tier. */
  static PhysicalIOConfiguration configuration() {
    return PhysicalIOConfiguration.builder()
        .maxMemoryLimit(2 * MIB)
        .targetRequestSize(256 * 1024)
        .maxRequestSize(256 * 1024)
        .readTimeout(Duration.ofMinutes(1))
        .fetchThreads(4)
        .build();
  }

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0]);
    Random random = new Random(Long.parseLong(args[1]));
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    byte[][] contents = new byte[OBJECTS][];
    String[] etags = new String[OBJECTS];
    for (int i = 0; i < OBJECTS; i++) {
      contents[i] = content(i);
      etags[i] = store.put(location(i), contents[i]);
    }
    PrintStream out = System.out;
    Metrics metrics = new Metrics();
    try (PhysicalIO io =
        new PhysicalIO(
            store, configuration(), disk(directory), new DiskCaches(), metrics, Ticker.system())) {
      out.println("ready " + metrics.get(Metric.DISK_UNAVAILABLE));
      out.flush();
      while (true) {
        int object = random.nextInt(OBJECTS);
        int start = random.nextInt(OBJECT_LENGTH);
        int length = 1 + random.nextInt(Math.min(OBJECT_LENGTH - start, 300 * 1024));
        byte[] bytes = new byte[length];
        try (ObjectReader reader =
            io.open(location(object), ObjectMetadata.of(OBJECT_LENGTH, etags[object]), IMMUTABLE)) {
          for (int done = 0; done < length; ) {
            done += reader.read(start + done, bytes, done, length - done);
          }
        }
        if (!Arrays.equals(bytes, 0, length, contents[object], start, start + length)) {
          out.println("wrong " + object + " " + start + "-" + (start + length - 1));
          out.flush();
          System.exit(3);
        }
        out.println(
            "read "
                + metrics.get(Metric.DISK_BYTES_READ)
                + " "
                + metrics.get(Metric.DISK_BYTES_WRITTEN)
                + " "
                + metrics.get(Metric.DISK_CHECKSUM_FAILURES));
        out.flush();
      }
    }
  }
}
