package io.seekwell.common;

import java.util.ArrayList;
import java.util.List;

/** Operations on lists of byte ranges. */
public final class ByteRanges {

  private ByteRanges() {}

  /**
   * Merges ranges, sorted by start and disjoint, whose gap is at most {@code mergeGap}, however
   * long the merged range grows: whoever fetches a merged range splits it into GETs of the size it
   * wants, so merging never leaves a short GET between two long ones.
   */
  public static List<ByteRange> coalesce(List<ByteRange> sorted, long mergeGap) {
    List<ByteRange> merged = new ArrayList<>();
    ByteRange current = null;
    for (ByteRange range : sorted) {
      if (current != null && range.start() - current.end() - 1 <= mergeGap) {
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
