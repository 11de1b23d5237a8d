package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a {@link Prefetcher} for bytes ahead where not getting them only means less is prefetched: a
 * request refused (no memory) or failing (the stream is closing) answers false, and a failure is
 * logged at DEBUG with the object and the range.
 */
public final class QuietPrefetch {

  private static final Logger LOG = LoggerFactory.getLogger(QuietPrefetch.class);

  private QuietPrefetch() {}

  /** {@link Prefetcher#prefetch}: bytes readers may read more than once. */
  public static boolean of(Prefetcher prefetcher, ByteRange range) {
    try {
      return prefetcher.prefetch(range);
    } catch (IOException e) {
      return failed(prefetcher, range, e);
    }
  }

  /** {@link Prefetcher#prefetchOnce}: bytes the stream reads once, in order. */
  public static boolean once(Prefetcher prefetcher, ByteRange range) {
    try {
      return prefetcher.prefetchOnce(range);
    } catch (IOException e) {
      return failed(prefetcher, range, e);
    }
  }

  /** {@link Prefetcher#prefetchInTurn}: bytes the stream reads once, in the order asked for. */
  public static void inTurn(Prefetcher prefetcher, ByteRange range) {
    try {
      prefetcher.prefetchInTurn(range);
    } catch (IOException e) {
      failed(prefetcher, range, e);
    }
  }

  private static boolean failed(Prefetcher prefetcher, ByteRange range, IOException e) {
    LOG.debug("Not prefetching {} of {}: {}", range, prefetcher.objectName(), e.toString());
    return false;
  }
}
