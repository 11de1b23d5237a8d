package io.seekwell.orc;

import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.Prefetcher;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.orc.OrcProto;

/**
 * Fetches and parses each stripe's footer into its {@link StripeStreams}, once per stripe: the
 * first caller claims the stripe's slot in the layout (a compare-and-set), later callers share its
 * future. A footer that cannot be fetched or parsed is counted and logged ({@link FooterMetrics})
 * and describes no streams. Safe from any thread.
 */
final class StripeFooterFetch {

  private final Prefetcher prefetcher;
  private final FooterMetrics footers;
  private final String file;

  StripeFooterFetch(Prefetcher prefetcher, FooterMetrics footers) {
    this.prefetcher = prefetcher;
    this.footers = footers;
    this.file = prefetcher.objectName();
  }

  /** Stripe {@code index}'s data streams; never fails ({@link StripeStreams#NONE} instead). */
  CompletableFuture<StripeStreams> streams(OrcLayout layout, int index) {
    CompletableFuture<StripeStreams> known = layout.streams().get(index);
    if (known != null) {
      return known;
    }
    CompletableFuture<StripeStreams> made = new CompletableFuture<>();
    if (!layout.streams().compareAndSet(index, null, made)) {
      return layout.streams().get(index);
    }
    Stripe stripe = layout.stripes().get(index);
    prefetcher
        .fetch(stripe.footer())
        .thenApply(
            bytes ->
                StripeStreams.of(stripe, stripeFooter(layout, bytes), layout.columnKeys().length))
        .whenComplete(
            (streams, failure) -> {
              if (failure == null) {
                footers.parsed();
                made.complete(streams);
              } else {
                footers.unparsed(file, "the footer of stripe " + index, failure);
                made.complete(StripeStreams.NONE);
              }
            });
    return made;
  }

  private static OrcProto.StripeFooter stripeFooter(OrcLayout layout, byte[] bytes) {
    try {
      return OrcProto.StripeFooter.parseFrom(
          OrcCompression.decompress(layout.tail().postScript(), bytes));
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }
}
