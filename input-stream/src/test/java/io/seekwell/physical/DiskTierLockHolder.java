package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.testing.InMemoryObjectClient;
import java.nio.file.Path;

/**
 * Another process for {@link DiskTierUnavailableTest}: opens a factory's physical IO with a disk
 * tier in the directory named by its argument (taking its lowest free slot), says {@code ready},
 * and holds the slot until its standard input ends.
 */
public final class DiskTierLockHolder {

  private DiskTierLockHolder() {}

  public static void main(String[] args) throws Exception {
    try (PhysicalIO io =
        new PhysicalIO(
            new InMemoryObjectClient(new Metrics()),
            PhysicalIOConfiguration.DEFAULT,
            DiskCacheConfiguration.in(Path.of(args[0]), 64L << 20),
            new DiskCaches(),
            new Metrics(),
            Ticker.system())) {
      System.out.println("ready " + io.memoryUsed());
      System.out.flush();
      while (System.in.read() >= 0) {
        // hold the directory until the test closes our input
      }
    }
  }
}
