package io.seekwell.common;

import java.util.ArrayList;
import java.util.List;

/** Operations on lists of byte ranges. */
public final class ByteRanges {

  private ByteRanges() {}

  /**
   * Merges ranges, sorted by start and disjoint, whose gap is at most {@code mergeGap}, as long as
   * the merged range stays within {@code maxMerged} bytes; a range longer than that on its own
   * stays as it is.
   */
  public static List<ByteRange> coalesce(List<ByteRange> sorted, long mergeGap, long maxMerged) {
    List<ByteRange> merged = new ArrayList<>();
    ByteRange current = null;
    for (ByteRange range : sorted) {
      if (current != null
          && range.start() - current.end() - 1 <= mergeGap
          && range.end() - current.start() + 1 <= maxMerged) {
        current = current.span(range);
      } else {
        if (current != null) {
          merged.add(current);
        }
        current = range;
      }
    }
    if (current != null) {
      merged.add(current);
    }
    return merged;
  }
}
