package io.seekwell.orc;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Reads ahead for one stream over an ORC file: at open, the tail is fetched with one GET of {@code
 * tail.prefetch.size} bytes from the end; once it is in, its postscript tells the tail's length,
 * and a longer tail's rest is fetched with a second GET. ORC's reader then finds its postscript,
 * footer and stripe statistics cached. Called by one thread at a time; its completions run on the
 * threads that receive the bytes.
 */
final class OrcReadStrategy implements ReadStrategy {

  private final Prefetcher prefetcher;
  private final OrcSettings settings;
  private volatile CompletableFuture<OrcTail> tail;

  OrcReadStrategy(Prefetcher prefetcher, OrcSettings settings) {
    this.prefetcher = prefetcher;
    this.settings = settings;
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    ByteRange guess =
        ByteRange.ofLength(
            length - Math.min(length, settings.tailPrefetchSize()),
            Math.min(length, settings.tailPrefetchSize()));
    if (guess.length() == 0) {
      return;
    }
    tail =
        prefetcher
            .fetch(guess)
            .thenApply(bytes -> parse(length, bytes))
            .thenApply(
                parsed -> {
                  fetchRest(guess, parsed);
                  return parsed;
                });
  }

  private OrcTail parse(long length, byte[] end) {
    try {
      return OrcTail.parse(prefetcher.objectName(), length, end);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }

  /** Fetches the part of the tail before {@code fetched}, if the tail is longer. */
  private void fetchRest(ByteRange fetched, OrcTail parsed) {
    long tailStart = prefetcher.objectLength() - parsed.length();
    if (tailStart < fetched.start()) {
      try {
        prefetcher.prefetch(ByteRange.ofLength(tailStart, fetched.start() - tailStart));
      } catch (IOException e) {
        throw new CompletionException(e);
      }
    }
  }

  /** The parsed tail, once its first GET is in; fails if the file is not ORC. */
  CompletableFuture<OrcTail> tail() {
    CompletableFuture<OrcTail> parsed = tail;
    return parsed == null ? CompletableFuture.failedFuture(new IOException("no tail")) : parsed;
  }

  @Override
  public void beforeRead(long position, long length) {}
}
