package io.seekwell.physical;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.physical.disk.DiskCaches;
import io.seekwell.physical.disk.UsableSpace;

/** Physical IO built as only tests build it, for the tests of the disk tier's package. */
public final class PhysicalIOs {

  private PhysicalIOs() {}

  /**
   * Physical IO with the disk tier {@code diskCache} configures, told the usable bytes of its
   * directory by {@code space} (a test makes a disk full so), taking block memory from the JVM's
   * pool.
   */
  public static PhysicalIO withSpace(
      ObjectClient client,
      PhysicalIOConfiguration configuration,
      DiskCacheConfiguration diskCache,
      DiskCaches scope,
      UsableSpace space,
      Metrics metrics,
      Ticker ticker) {
    return new PhysicalIO(
        client, configuration, diskCache, scope, space, PagePool.jvm(), metrics, ticker);
  }
}
