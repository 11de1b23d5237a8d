package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;
import org.apache.orc.OrcProto;

/**
 * The data streams of one stripe (present, data, length, dictionary, secondary), as its footer
 * lists them: where each lies and whose column it is, in file order. Index streams (row indexes,
 * bloom filters) are only stepped over: a reader that wants them asks for them. Immutable.
 *
 * <p>A stripe's streams are laid out as ORC's reader finds them: first the index area, then the
 * data area; in each, the unencrypted streams in the footer's order, then each encryption
 * variant's. A footer whose streams do not add up to the stripe's index and data lengths describes
 * no streams ({@link #NONE}): nothing is learned or prefetched from it.
 */
final class StripeStreams {

  /** No streams: the stripe's footer could not be read, or does not describe the stripe. */
  static final StripeStreams NONE = new StripeStreams(new long[0], new long[0], new int[0]);

  private final long[] starts;
  private final long[] ends;
  private final int[] columns;

  private StripeStreams(long[] starts, long[] ends, int[] columns) {
    this.starts = starts;
    this.ends = ends;
    this.columns = columns;
  }

  /** The data streams {@code footer} lists for {@code stripe} of a file of {@code columns}. */
  static StripeStreams of(Stripe stripe, OrcProto.StripeFooter footer, int columns) {
    List<List<OrcProto.Stream>> lists = new ArrayList<>();
    lists.add(footer.getStreamsList());
    footer.getEncryptionList().forEach(variant -> lists.add(variant.getStreamsList()));
    int count = lists.stream().mapToInt(List::size).sum();
    long[] starts = new long[count];
    long[] ends = new long[count];
    int[] columnOf = new int[count];
    int found = 0;
    long at = stripe.offset();
    for (boolean dataArea : new boolean[] {false, true}) {
      for (List<OrcProto.Stream> streams : lists) {
        for (OrcProto.Stream stream : streams) {
          if (isIndex(stream.getKind()) == dataArea) {
            continue;
          }
          if (dataArea && stream.getLength() > 0) {
            starts[found] = at;
            ends[found] = at + stream.getLength() - 1;
            if (stream.getColumn() >= columns) {
              return NONE;
            }
            columnOf[found++] = stream.getColumn();
          }
          at += stream.getLength();
        }
      }
    }
    if (at != stripe.offset() + stripe.indexLength() + stripe.dataLength()) {
      return NONE;
    }
    return new StripeStreams(
        Arrays.copyOf(starts, found), Arrays.copyOf(ends, found), Arrays.copyOf(columnOf, found));
  }

  /** The kinds ORC keeps in a stripe's index area. */
  private static boolean isIndex(OrcProto.Stream.Kind kind) {
    return switch (kind) {
      case ROW_INDEX, DICTIONARY_COUNT, BLOOM_FILTER, BLOOM_FILTER_UTF8, ENCRYPTED_INDEX -> true;
      default -> false;
    };
  }

  /**
   * Tells {@code column} the column of each stream bytes {@code from} to {@code to} (inclusive)
   * touch, in file order.
   */
  void columnsTouched(long from, long to, IntConsumer column) {
    int i = Arrays.binarySearch(starts, from);
    i = i >= 0 ? i : Math.max(0, -i - 2);
    for (; i < starts.length && starts[i] <= to; i++) {
      if (ends[i] >= from) {
        column.accept(columns[i]);
      }
    }
  }

  /** The streams of the columns {@code wanted} accepts, in file order. */
  List<ByteRange> streamsOf(IntPredicate wanted) {
    List<ByteRange> ranges = new ArrayList<>();
    for (int i = 0; i < starts.length; i++) {
      if (wanted.test(columns[i])) {
        ranges.add(ByteRange.of(starts[i], ends[i]));
      }
    }
    return ranges;
  }
}
