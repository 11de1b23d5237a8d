package io.seekwell.logical;

import io.seekwell.common.ByteRange;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;

/**
 * Read-ahead through one part of a file's structure (a Parquet row group, the data of an ORC
 * stripe) for a reader streaming through bytes nothing predicted, one buffer after another, so that
 * a run's GETs are in flight together rather than one per read. A format plug-in's strategy tells
 * it of each read; it asks its {@link Prefetcher} for bytes (read once, in order).
 *
 * <p>The rule: a read <em>follows</em> the last one when it starts at most {@code gap} bytes after
 * where the last one ended (never before it). A read that follows another may start a run, if the
 * strategy finds its bytes cold ({@code coldUntil} gives where their structure ends, exclusive, or
 * -1 when they are predicted); the run asks for the bytes from its read's end up to the structure's
 * end in a window of twice what the run has read so far (at first its first step: that read and the
 * gap before it), asked for again each time the reader is within half a window of the bytes asked
 * for, and never wider than four of the prefetcher's requests. So a reader that leaves a run early
 * (Parquet's page-index filtering skips pages) leaves at most twice what the run read unread, and a
 * small memory limit (small requests) keeps the window small. A read that does not follow ends the
 * run. A gap of 0 (Parquet) wants reads that follow on exactly; ORC's readers skip the columns they
 * do not read, so its gap is the store's merge gap ({@link Prefetcher#mergeGap()}), within which
 * one GET is cheaper than two.
 *
 * <p>{@link Start} says which following reads may start a run: only the first (Parquet: a run of
 * reads through predicted chunks stays without read-ahead, and so does one that found no memory) or
 * each while none reads ahead (ORC: a reader of predicted columns that steps into one nothing
 * predicted is read ahead of from there).
 *
 * <p>Allocates nothing while a run goes on. Not thread-safe: one stream's strategy owns it and
 * calls it from the stream's thread.
 */
public final class StructureReadahead {

  /** Which reads that follow another may start a run. */
  public enum Start {
    /** Only the first read of a run: if it does not read ahead, the run never does. */
    FIRST_FOLLOWING_READ,
    /** Every following read while the run does not read ahead. */
    ANY_FOLLOWING_READ
  }

  /**
   * What the current run does: none yet; nothing (predicted bytes, or no memory); reading ahead.
   */
  private enum Run {
    NONE,
    NOT_AHEAD,
    READING_AHEAD
  }

  /** The widest window, in the prefetcher's requests. */
  private static final long MAX_REQUESTS_AHEAD = 4;

  private final Prefetcher prefetcher;
  private final LongSupplier gap;
  private final LongUnaryOperator coldUntil;
  private final Run notAhead;
  private long lastEnd = -1;
  private Run run = Run.NONE;
  private long runStart;
  private long frontier;
  private long limit;

  /**
   * A window for one stream.
   *
   * @param gap how far after the last read's end a read may start and still follow it
   * @param start which following reads may start a run
   * @param coldUntil for a read that may start a run, ending at (exclusive) its argument: the end
   *     (exclusive) of the structure the run may read ahead through, or -1 if it should not
   */
  public StructureReadahead(
      Prefetcher prefetcher, LongSupplier gap, Start start, LongUnaryOperator coldUntil) {
    this.prefetcher = prefetcher;
    this.gap = gap;
    this.coldUntil = coldUntil;
    this.notAhead = start == Start.FIRST_FOLLOWING_READ ? Run.NOT_AHEAD : Run.NONE;
  }

  /** A read of the bytes from {@code position} to {@code end} (exclusive): may ask for more. */
  public void onRead(long position, long end) {
    long previousEnd = lastEnd;
    lastEnd = end;
    if (previousEnd < 0 || position < previousEnd || position - previousEnd > gap.getAsLong()) {
      run = Run.NONE;
      return;
    }
    if (run == Run.NONE) {
      limit = coldUntil.applyAsLong(end);
      if (limit < 0) {
        run = notAhead;
        return;
      }
      run = Run.READING_AHEAD;
      runStart = previousEnd;
      frontier = end;
    }
    if (run != Run.READING_AHEAD) {
      return;
    }
    frontier = Math.max(frontier, end);
    long window = Math.min(2 * (end - runStart), MAX_REQUESTS_AHEAD * prefetcher.requestSize());
    if (frontier >= limit || frontier - end >= window / 2) {
      return;
    }
    long last = Math.min(limit, end + window) - 1;
    if (QuietPrefetch.once(prefetcher, ByteRange.of(frontier, last))) {
      frontier = last + 1;
    } else {
      run = notAhead; // no memory for it: the reader goes on without
    }
  }

  /**
   * A read the window does not act on (the reader asked for all it needs at once, or read the
   * file's tail): the next read follows it if it starts where this one ended.
   */
  public void skipped(long end) {
    lastEnd = end;
  }

  /** The reader moved to another structure: the next read follows nothing. */
  public void reset() {
    lastEnd = -1;
    run = Run.NONE;
  }
}
