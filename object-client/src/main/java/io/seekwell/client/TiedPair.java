package io.seekwell.client;

import io.seekwell.common.metrics.Metric;
import io.seekwell.common.object.RequestOptions;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verdict on a tied pair (a small request sent twice at once while connections stall): once one
 * half answered, the other is given a hedge deadline to answer too, and whether it did tells {@link
 * ResponseTimes} whether a connection stalled, so that tying ends when the stalls do.
 *
 * <p>Design notes (thread-safety): {@code awaiting} is guarded by the lock of the {@link
 * HedgedExchange} that owns the pair; {@link #awaitPartnerOf} and {@link #take} run under it,
 * {@link #settled} outside it.
 */
final class TiedPair<T> {

  private static final Logger LOG = LoggerFactory.getLogger(TiedPair.class);

  private final String what;
  private final RequestOptions options;
  private final CallContext context;
  private Attempt<T> awaiting;

  TiedPair(String what, RequestOptions options, CallContext context) {
    this.what = what;
    this.options = options;
    this.context = context;
  }

  /**
   * Under the exchange's lock, when {@code winner} (not a hedge) answered first: the other half of
   * the pair among {@code inFlight}, which now awaits its verdict, or null.
   */
  Attempt<T> awaitPartnerOf(Attempt<T> winner, List<Attempt<T>> inFlight) {
    if (winner.kind() == Attempt.Kind.HEDGE) {
      return null;
    }
    awaiting =
        inFlight.stream().filter(a -> a.kind() != Attempt.Kind.HEDGE).findFirst().orElse(null);
    return awaiting;
  }

  /** Under the exchange's lock: whether {@code partner} awaited its verdict; it no longer does. */
  boolean take(Attempt<T> partner) {
    if (awaiting != partner) {
      return false;
    }
    awaiting = null;
    return true;
  }

  /**
   * The partner taken answered after the winner ({@code stalled} false), failed, or was still
   * waiting a hedge deadline later ({@code stalled} true, and it is cancelled).
   */
  void settled(Attempt<T> partner, boolean stalled) {
    if (stalled) {
      LOG.debug("{}: tied {} stalled, cut", what, partner);
      partner.cancel();
    }
    context.times().recordAnswer(stalled);
    if (stalled && partner.kind() == Attempt.Kind.TRY) {
      // The tied copy answered for the try's stalled first attempt.
      context.counter().count(Metric.HEDGES_WON, options);
    }
  }
}
