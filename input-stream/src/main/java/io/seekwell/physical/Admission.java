package io.seekwell.physical;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which blocks a read or a prefetch of a {@link BlockStore} starts: the missing parts of its window
 * as the {@link RequestPlanner} splits them, admitted in order against the {@link MemoryTier} and
 * handed to the {@link Tiers} to fill. A read's own miss is widened past the read-ahead size while
 * the factory's {@link WideningCredit} allows. What finds no memory is counted and logged: a
 * prefetch's parts as refused, a read's as a direct read. Thread-safe: every admission of an object
 * runs under its plan lock, taken here; the memory tier's eviction lock is taken inside it, never
 * the other way round. The credit is the factory's, decided before the plan lock is taken.
 */
final class Admission {

  private static final Logger LOG = LoggerFactory.getLogger(Admission.class);

  private final RequestPlanner planner;
  private final MemoryTier memory;
  private final Tiers tiers;
  private final Metrics metrics;
  private final WideningCredit widening;

  /** Admission of {@code planner}'s parts into {@code memory}, filled through {@code tiers}. */
  Admission(RequestPlanner planner, MemoryTier memory, Tiers tiers, Metrics metrics) {
    this.planner = planner;
    this.memory = memory;
    this.tiers = tiers;
    this.metrics = metrics;
    this.widening = new WideningCredit(metrics);
  }

  /**
   * Makes sure GETs are in flight for the bytes around a read of {@code [position, end]}: the
   * missing parts of the widened window. Parts the read needs may evict blocks to get memory; parts
   * only read ahead are refused when there is no room. A read's own miss that the link widened and
   * that finds no room is planned again at the read-ahead size before it gives up.
   *
   * @return false if no memory could be found for the block holding {@code position}: the caller
   *     then reads those bytes straight into its own buffer
   */
  boolean fetch(
      ObjectBlocks blocks, long position, long end, FetchContext context, FetchPurpose purpose) {
    ByteRange readAhead = planner.readAheadWindow(position, end, blocks.length());
    ByteRange window = window(blocks, position, end, purpose, readAhead);
    long widenedFrom = window.equals(readAhead) ? Long.MAX_VALUE : readAhead.end() + 1;
    blocks.planLock().lock();
    try {
      List<ByteRange> parts = planner.missingParts(window, blocks.blocks());
      int admitted = admitMissing(blocks, parts, position, context, purpose, widenedFrom);
      if (admitted >= 0) {
        long widened = bytesAfter(parts.subList(0, admitted), readAhead.end());
        if (widened > 0) {
          metrics.add(Metric.MISS_WIDENED_BYTES, widened);
          LOG.debug(
              "{}: the miss at {} widened by the link to {}, {} bytes past the read-ahead size",
              blocks.key().location(),
              position,
              window,
              widened);
        }
        return true;
      }
      return !readAhead.equals(window)
          && admitMissing(
                  blocks,
                  planner.missingParts(readAhead, blocks.blocks()),
                  position,
                  context,
                  purpose,
                  Long.MAX_VALUE)
              >= 0;
    } finally {
      blocks.planLock().unlock();
    }
  }

  /**
   * The bytes to have for a read of {@code [position, end]}: the planner's window, but for a read's
   * own miss that the {@link WideningCredit} holds back, the read-ahead window.
   */
  private ByteRange window(
      ObjectBlocks blocks, long position, long end, FetchPurpose purpose, ByteRange readAhead) {
    ByteRange window = planner.window(position, end, blocks.length(), purpose);
    if (window.equals(readAhead)) {
      return window;
    }
    WideningCredit.Decision decision = widening.decide();
    if (decision == WideningCredit.Decision.WIDEN) {
      return window;
    }
    ByteRange planned = decision == WideningCredit.Decision.PROBE ? window : readAhead;
    LOG.debug(
        "{}: the miss at {} planned as {} ({}): too few widened misses were read",
        blocks.key().location(),
        position,
        planned,
        decision == WideningCredit.Decision.PROBE ? "widened as a probe" : "not widened");
    return planned;
  }

  /** How many bytes of {@code parts} lie after {@code end}. */
  private static long bytesAfter(List<ByteRange> parts, long end) {
    long after = 0;
    for (ByteRange part : parts) {
      after += Math.max(0, part.end() - Math.max(part.start() - 1, end));
    }
    return after;
  }

  /**
   * Admits and starts filling the missing {@code parts} of a read at {@code position}, under the
   * object's plan lock, in order until one finds no memory.
   *
   * @return how many of {@code parts} were admitted, or -1 if the part holding {@code position}
   *     found no memory (nothing is admitted then, as it is the first part)
   */
  private int admitMissing(
      ObjectBlocks blocks,
      List<ByteRange> parts,
      long position,
      FetchContext context,
      FetchPurpose purpose,
      long widenedFrom) {
    int admitted = admitInOrder(blocks, parts, context, purpose, widenedFrom);
    if (admitted == parts.size()) {
      return admitted;
    }
    if (purpose.isPrefetch()) {
      refused(blocks, parts.subList(admitted, parts.size()));
    }
    return parts.get(admitted).contains(position) ? -1 : admitted;
  }

  /**
   * Admits and starts filling {@code parts}, in order, until one finds no memory; under the
   * object's plan lock. The bytes from {@code widenedFrom} on are a widened miss's extra bytes
   * ({@link Long#MAX_VALUE}: none): the first block that holds some carries the {@link
   * WideningCredit}, which the first read of them earns (one credit per miss).
   *
   * @return how many were admitted
   */
  private int admitInOrder(
      ObjectBlocks blocks,
      List<ByteRange> parts,
      FetchContext context,
      FetchPurpose purpose,
      long widenedFrom) {
    long unmarked = widenedFrom;
    for (int i = 0; i < parts.size(); i++) {
      ByteRange part = parts.get(i);
      Block block = memory.admit(blocks, part, purpose);
      if (block == null) {
        return i;
      }
      if (purpose.isPrefetch()) {
        metrics.add(Metric.PREFETCHED_BYTES, part.length());
      }
      if (part.end() >= unmarked) {
        block.widenedFrom((int) Math.max(0, unmarked - part.start()), widening);
        unmarked = Long.MAX_VALUE;
      }
      blocks.add(block);
      memory.add(block);
      tiers.fill(block, context);
    }
    return parts.size();
  }

  /**
   * Starts GETs for the missing bytes of {@code range}, which a stream will read in order, from its
   * start until a part finds no memory (bytes fetched ahead of reads, read once: {@link
   * FetchPurpose#SCAN}). A refusal is neither counted nor logged here: the caller keeps the rest
   * waiting ({@link WaitingPrefetches}). Bytes admitted after {@code waited} are counted as {@link
   * Metric#PREFETCHED_BYTES_WAITED}.
   *
   * @return the first byte of {@code range} not asked for: {@code range.end() + 1} if none is left
   */
  long inTurn(ObjectBlocks blocks, ByteRange range, FetchContext context, boolean waited) {
    blocks.planLock().lock();
    try {
      List<ByteRange> parts = planner.missingParts(range, blocks.blocks());
      int admitted = admitInOrder(blocks, parts, context, FetchPurpose.SCAN, Long.MAX_VALUE);
      if (waited) {
        long bytes = 0;
        for (ByteRange part : parts.subList(0, admitted)) {
          bytes += part.length();
        }
        metrics.add(Metric.PREFETCHED_BYTES_WAITED, bytes);
      }
      return admitted < parts.size() ? parts.get(admitted).start() : range.end() + 1;
    } finally {
      blocks.planLock().unlock();
    }
  }

  /** Counts and logs the {@code parts} of a prefetch no memory was found for. */
  private void refused(ObjectBlocks blocks, List<ByteRange> parts) {
    long bytes = parts.stream().mapToLong(ByteRange::length).sum();
    countRefused(bytes);
    LOG.debug(
        "{}: no memory to fetch {} ahead ({} bytes); not fetched",
        blocks.key().location(),
        parts,
        bytes);
  }

  /** Counts {@code bytes} asked for ahead that will not be fetched, for want of memory. */
  void countRefused(long bytes) {
    metrics.add(Metric.PREFETCHED_BYTES_REFUSED, bytes);
  }

  /**
   * The GETs of a direct read of {@code range} of {@code blocks}: split finer than a missing range
   * ({@link RequestPlanner#directParts}), as they take no block memory. Every direct read is
   * counted ({@link Metric#DIRECT_READ_BYTES}) and logged at DEBUG; a split one is counted as such
   * ({@link Metric#DIRECT_READS_SPLIT}).
   */
  List<ByteRange> directParts(ObjectBlocks blocks, ByteRange range) {
    List<ByteRange> parts = planner.directParts(range, DirectRead.PARALLEL);
    if (parts.size() > 1) {
      metrics.increment(Metric.DIRECT_READS_SPLIT);
    }
    metrics.add(Metric.DIRECT_READ_BYTES, range.length());
    LOG.debug(
        "{} {}: read straight into the caller's buffer with {} GET(s), {} at a time",
        blocks.key().location(),
        range,
        parts.size(),
        DirectRead.PARALLEL);
    return parts;
  }
}
