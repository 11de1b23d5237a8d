package io.seekwell.physical;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one bound on block memory in a JVM: every factory's blocks, and the pages kept for reuse
 * ({@link PagePool}), count against it, so several factories, file systems or FileIO copies in one
 * process never hold more than its limit between them. Lock-free: counts are atomic, and the users
 * that can give memory back (each factory's {@link MemoryTier}) sit in a concurrent set.
 *
 * <p>A user short of the JVM's memory asks every user, the largest holder first, to evict blocks of
 * one kind ({@link #reclaimFor}), so that no factory loses blocks it still reads while another
 * holds blocks its readers are done with. Each takes only its own eviction lock, one after the
 * other, never two at once.
 */
final class SharedBudget {

  /** A user of the budget that can give memory back by evicting what it holds. */
  interface Reclaimer {
    /** Evicts blocks of {@code kind} until the budget has room for {@code bytes} more. */
    void reclaim(long bytes, Victims kind);

    /** Bytes of blocks this user holds now. */
    long heldBytes();
  }

  private final ByteBound bound;
  private final Set<Reclaimer> reclaimers = ConcurrentHashMap.newKeySet();

  /** A budget of {@code limit} bytes. */
  SharedBudget(long limit) {
    this.bound = new ByteBound(limit);
  }

  /** The count of the budget's bytes: blocks' pages and pages kept for reuse. */
  ByteBound bound() {
    return bound;
  }

  /** Lets {@code reclaimer} be asked for memory by the budget's other users. */
  void register(Reclaimer reclaimer) {
    reclaimers.add(reclaimer);
  }

  /** Stops asking {@code reclaimer}; called when its user closes. */
  void unregister(Reclaimer reclaimer) {
    reclaimers.remove(reclaimer);
  }

  /**
   * Asks every user, the one holding most first, to evict blocks of {@code kind} until {@code
   * bytes} more fit (each stops once they do).
   */
  void reclaimFor(long bytes, Victims kind) {
    record Held(Reclaimer reclaimer, long bytes) {}
    List<Held> largestFirst = new ArrayList<>();
    for (Reclaimer reclaimer : reclaimers) {
      largestFirst.add(new Held(reclaimer, reclaimer.heldBytes())); // what each holds, once
    }
    largestFirst.sort(Comparator.comparingLong(Held::bytes).reversed());
    for (Held held : largestFirst) {
      held.reclaimer().reclaim(bytes, kind);
    }
  }
}
