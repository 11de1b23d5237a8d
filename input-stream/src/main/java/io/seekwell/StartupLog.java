package io.seekwell;

import io.seekwell.common.Version;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The line a stream factory logs when it starts. Thread-safe: which factory is the first of the JVM
 * is decided by one atomic flag.
 */
final class StartupLog {

  // The factories' logger, the one operators look for.
  private static final Logger LOG = LoggerFactory.getLogger(S3SeekableInputStreamFactory.class);
  private static final AtomicBoolean ANNOUNCED = new AtomicBoolean();

  private StartupLog() {}

  /**
   * Says once per JVM, at INFO, that Seekwell reads and with which main settings, so that a user
   * can tell from the engine's log that it is on; later factories say it at DEBUG.
   */
  static void announce(
      S3SeekableInputStreamConfiguration configuration,
      PhysicalIOConfiguration.JvmBudget budget,
      List<String> formats) {
    String settings = settings(configuration, budget, formats);
    if (ANNOUNCED.compareAndSet(false, true)) {
      LOG.info("Seekwell {} reads from S3: {}", Version.current(), settings);
    } else {
      LOG.debug("Seekwell {} stream factory: {}", Version.current(), settings);
    }
  }

  /** The main settings, as the startup line gives them, with the JVM's {@code budget}. */
  static String settings(
      S3SeekableInputStreamConfiguration configuration,
      PhysicalIOConfiguration.JvmBudget budget,
      List<String> formats) {
    PhysicalIOConfiguration physical = configuration.physicalIO();
    return "memory limit "
        + physical.maxMemoryLimit()
        + " bytes, within the JVM's "
        + budget.bytes()
        + " bytes for every factory (seekwell.memory.limit: "
        + budget.source()
        + "), requests of "
        + physical.targetRequestSize()
        + " bytes (up to "
        + physical.largestRequestSize()
        + " on a fast link), metadata kept "
        + physical.metadataCacheTtl()
        + ", up to "
        + configuration.client().maxAttempts()
        + " attempts, hedging "
        + (configuration.client().hedgeMaxCopies() > 0 ? "on" : "off")
        + ", format plug-ins "
        + formats;
  }
}
