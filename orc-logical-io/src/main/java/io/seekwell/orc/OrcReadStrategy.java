package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.orc.OrcProto;

/**
 * Reads ahead for one stream over an ORC file: at open, the tail is fetched with one GET of {@code
 * tail.prefetch.size} bytes from the end; once it is in, its postscript tells the tail's length,
 * and a longer tail's rest is fetched with a second GET. The footer is then parsed, and the first
 * stripe's footer fetched; a read in a stripe fetches the next stripe's footer, so that ORC's
 * reader, which starts each stripe with its footer, finds it cached. Called by one thread at a
 * time; its completions run on the threads that receive the bytes.
 */
final class OrcReadStrategy implements ReadStrategy {

  private final Prefetcher prefetcher;
  private final OrcSettings settings;
  private volatile CompletableFuture<OrcProto.Footer> footer;
  private volatile List<Stripe> stripes = List.of();
  // The highest stripe whose footer was asked for: each is asked for once.
  private final AtomicInteger footersAsked = new AtomicInteger(-1);

  OrcReadStrategy(Prefetcher prefetcher, OrcSettings settings) {
    this.prefetcher = prefetcher;
    this.settings = settings;
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    long guessLength = Math.min(length, settings.tailPrefetchSize());
    if (guessLength == 0) {
      return;
    }
    ByteRange guess = ByteRange.ofLength(length - guessLength, guessLength);
    footer =
        prefetcher
            .fetch(guess)
            .thenCompose(end -> footerFrom(guess, end))
            .thenApply(
                parsed -> {
                  stripes = Stripe.of(parsed);
                  prefetchFooter(0);
                  return parsed;
                });
  }

  /** Asks for the footer of stripe {@code index}, if there is one and it was not asked for. */
  private void prefetchFooter(int index) {
    List<Stripe> known = stripes;
    if (index < known.size() && footersAsked.getAndAccumulate(index, Math::max) < index) {
      try {
        prefetcher.prefetch(known.get(index).footer());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * The footer, from the tail's first {@code fetched} bytes {@code end}, once the rest of the tail
   * (if any) is in too.
   */
  private CompletableFuture<OrcProto.Footer> footerFrom(ByteRange fetched, byte[] end) {
    long length = prefetcher.objectLength();
    try {
      OrcTail tail = OrcTail.parse(prefetcher.objectName(), length, end);
      long tailStart = length - tail.length();
      if (tailStart >= fetched.start()) {
        return CompletableFuture.completedFuture(tail.footer(prefetcher.objectName(), end));
      }
      return prefetcher
          .fetch(ByteRange.ofLength(tailStart, fetched.start() - tailStart))
          .thenApply(rest -> footer(tail, concat(rest, end)));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private OrcProto.Footer footer(OrcTail tail, byte[] end) {
    try {
      return tail.footer(prefetcher.objectName(), end);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  /** The file's footer, once the tail is in; fails if the file is not ORC. */
  CompletableFuture<OrcProto.Footer> footer() {
    CompletableFuture<OrcProto.Footer> parsed = footer;
    return parsed == null
        ? CompletableFuture.failedFuture(new IOException(prefetcher.objectName() + " is empty"))
        : parsed;
  }

  @Override
  public void beforeRead(long position, long length) {
    beforePositionalRead(position, length);
  }

  /** A read in stripe N: the footer of stripe N + 1 is fetched ahead of the reader. */
  @Override
  public void beforePositionalRead(long position, long length) {
    int index = Stripe.indexOf(stripes, position);
    if (index >= 0) {
      prefetchFooter(index + 1);
    }
  }
}
