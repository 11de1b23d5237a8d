package io.seekwell.physical.disk;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.Contexts;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.nio.file.Path;

/**
 * Another process for {@link DiskTierUnavailableTest} and {@link SharedSlotsTest}: opens a
 * factory's physical IO with a disk tier in the directory named by its first argument (taking its
 * lowest free slot), says {@code ready}, and holds the slot until its standard input ends. Given a
 * location, a length and a seed as well, it first reads that object ({@link TestData#randomBytes}
 * of the seed), declared immutable, and waits until its tier has written it; its {@code ready} line
 * then ends with the object's ETag.
 */
public final class DiskTierLockHolder {

  private DiskTierLockHolder() {}

  public static void main(String[] args) throws Exception {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    Metrics metrics = new Metrics();
    String etag = "";
    try (PhysicalIO io =
        new PhysicalIO(
            store,
            PhysicalIOConfiguration.DEFAULT,
            DiskCacheConfiguration.in(Path.of(args[0]), 64L << 20),
            new DiskCaches(),
            metrics,
            Ticker.system())) {
      if (args.length == 4) {
        ObjectLocation location = ObjectLocation.of("bucket", args[1]);
        byte[] content = TestData.randomBytes(Long.parseLong(args[3]), Integer.parseInt(args[2]));
        etag = store.put(location, content);
        FetchContext immutable = Contexts.IMMUTABLE;
        try (ObjectReader reader =
            io.open(location, ObjectMetadata.of(content.length, etag), immutable)) {
          byte[] bytes = new byte[content.length];
          for (int done = 0; done < bytes.length; ) {
            done += reader.read(done, bytes, done, bytes.length - done);
          }
        }
        DiskWrites.await(metrics, content.length);
      }
      System.out.println("ready " + io.memoryUsed() + " " + etag);
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the directory until the test closes our input
      }
    }
  }
}
