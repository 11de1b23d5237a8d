package io.seekwell.iceberg;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentMap;

/**
 * Where the copies of one {@link SeekwellS3FileIO} in a JVM find the {@link SeekwellReads} they
 * share. Engines ship a FileIO to their workers serialized, and a worker deserializes a copy per
 * table and query (Spark: one per broadcast of a scan's table). Were each copy to read with
 * factories of its own, every query would start with a cold cache, and each copy would hold a
 * memory limit of its own. So a FileIO carries an identity, made when it is built or initialized
 * and kept by its copies, and the copies in one JVM with that identity share one {@code
 * SeekwellReads}: one factory per client role, one cache and one memory limit.
 *
 * <p>Lifetime: the last copy to close closes the shared reads and the clients lent to its factories
 * (a lender's clients stay open while other copies read with them). Engines rarely close the copies
 * they deserialize: the registry holds each shared reads weakly, so that it goes when no copy is
 * left to reach it, as a copy's own would.
 *
 * <p>Concurrency: joining and leaving update an identity's entry atomically (the map's {@code
 * compute}), which also guards the count of copies each shared reads keeps. Thread-safe.
 */
final class SharedReads {

  private static final ConcurrentMap<String, SeekwellReads> OPEN =
      Caffeine.newBuilder().weakValues().<String, SeekwellReads>build().asMap();

  private SharedReads() {}

  /** A new identity, for a FileIO whose copies are to share its reads. */
  static String newIdentity() {
    return UUID.randomUUID().toString();
  }

  /**
   * The reads the copies with identity {@code id} share, made from {@code properties} if none is
   * open in this JVM; the caller is counted as one more copy reading with them, until it leaves.
   */
  static SeekwellReads join(String id, Map<String, String> properties) {
    return OPEN.compute(
        id,
        (key, open) -> {
          SeekwellReads reads = open != null ? open : new SeekwellReads(properties);
          reads.joined();
          return reads;
        });
  }

  /**
   * {@code copy} leaves {@code reads}, which it joined as identity {@code id}; the last copy to
   * leave closes them and the clients other copies lent to them. Returns whether {@code copy} may
   * close its own clients now: false while other copies read with a client it lent.
   */
  static boolean leave(String id, SeekwellReads reads, SeekwellS3FileIO copy) {
    boolean[] last = {false};
    OPEN.compute(
        id,
        (key, open) -> {
          last[0] = reads.left() == 0;
          return open == reads && last[0] ? null : open;
        });
    if (!last[0]) {
      return !reads.lentBy(copy);
    }
    try {
      reads.close();
    } finally {
      for (SeekwellS3FileIO lender : reads.lenders()) {
        if (lender != copy) {
          lender.closeLentClients(id);
        }
      }
    }
    return true;
  }
}
