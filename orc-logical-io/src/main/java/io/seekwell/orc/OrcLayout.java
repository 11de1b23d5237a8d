package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.SchemaFingerprint;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.apache.orc.OrcProto;

/**
 * An ORC file's parsed tail as a stream's reads need it: the postscript (for the codec), the
 * footer, its stripes, its schema's fingerprint, the history's key of each column, and each
 * stripe's data streams once asked for ({@link StripeFooterFetch} sets each slot once). Otherwise
 * immutable.
 */
record OrcLayout(
    OrcTail tail,
    OrcProto.Footer footer,
    List<Stripe> stripes,
    String fingerprint,
    String[] columnKeys,
    AtomicReferenceArray<CompletableFuture<StripeStreams>> streams) {

  /**
   * The layout of the file {@code prefetcher} reads, from the tail's first {@code fetched} bytes
   * {@code end}, once the rest of the tail (if any) is fetched too; fails if the file is not ORC.
   */
  static CompletableFuture<OrcLayout> from(Prefetcher prefetcher, ByteRange fetched, byte[] end) {
    String file = prefetcher.objectName();
    long length = prefetcher.objectLength();
    try {
      OrcTail tail = OrcTail.parse(file, length, end);
      long tailStart = length - tail.length();
      if (tailStart >= fetched.start()) {
        return CompletableFuture.completedFuture(of(file, tail, end));
      }
      return prefetcher
          .fetch(ByteRange.ofLength(tailStart, fetched.start() - tailStart))
          .thenApply(rest -> of(file, tail, concat(rest, end)));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static OrcLayout of(String file, OrcTail tail, byte[] end) {
    OrcProto.Footer footer;
    try {
      footer = tail.footer(file, end);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
    List<Stripe> stripes = Stripe.of(footer);
    String[] columnKeys = new String[footer.getTypesCount()];
    Arrays.setAll(columnKeys, Integer::toString);
    return new OrcLayout(
        tail,
        footer,
        stripes,
        SchemaFingerprint.of(footer.getTypesList()),
        columnKeys,
        new AtomicReferenceArray<>(stripes.size()));
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
