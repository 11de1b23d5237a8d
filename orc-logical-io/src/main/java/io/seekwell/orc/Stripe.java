package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import java.util.List;
import org.apache.orc.OrcProto;

/**
 * Where one stripe of an ORC file lies: its index streams, then its data streams, then its footer.
 * Immutable.
 */
record Stripe(long offset, long indexLength, long dataLength, long footerLength) {

  /** The stripes the file's {@code footer} lists, in file order. */
  static List<Stripe> of(OrcProto.Footer footer) {
    return footer.getStripesList().stream()
        .map(
            stripe ->
                new Stripe(
                    stripe.getOffset(),
                    stripe.getIndexLength(),
                    stripe.getDataLength(),
                    stripe.getFooterLength()))
        .toList();
  }

  /** The stripe's data streams, between its indexes and its footer. */
  ByteRange data() {
    return ByteRange.ofLength(offset + indexLength, dataLength);
  }

  /** The stripe's footer, which lists its streams; ORC's reader reads it first. */
  ByteRange footer() {
    return ByteRange.ofLength(offset + indexLength + dataLength, footerLength);
  }

  /**
   * The index of the stripe of {@code stripes} (in file order) that holds {@code position}, or -1
   * if none does (the file's header or tail): a binary search, as reads come often.
   */
  static int indexOf(List<Stripe> stripes, long position) {
    int low = 0;
    int high = stripes.size() - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      Stripe stripe = stripes.get(middle);
      if (position < stripe.offset) {
        high = middle - 1;
      } else if (position
          >= stripe.offset + stripe.indexLength + stripe.dataLength + stripe.footerLength) {
        low = middle + 1;
      } else {
        return middle;
      }
    }
    return -1;
  }
}
