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

  /** The stripe's footer, which lists its streams; ORC's reader reads it first. */
  ByteRange footer() {
    return ByteRange.ofLength(offset + indexLength + dataLength, footerLength);
  }

  /** Whether {@code position} lies in the stripe. */
  boolean contains(long position) {
    return position >= offset && position < offset + indexLength + dataLength + footerLength;
  }
}
