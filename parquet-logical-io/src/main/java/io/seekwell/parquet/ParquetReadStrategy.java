package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * What a stream over a Parquet file reads ahead: at open, one GET for the file's tail (footer and
 * page indexes); if the footer turns out longer than that tail, one more GET for the missing part;
 * then the footer is parsed on the plug-in's executor. Not thread-safe: one stream owns it.
 */
final class ParquetReadStrategy implements ReadStrategy {

  private final Prefetcher prefetcher;
  private final ParquetSettings settings;
  private final Executor parser;
  private final String file;
  private CompletableFuture<ParquetFooter> footer =
      CompletableFuture.failedFuture(new IllegalStateException("The stream is not open yet"));

  ParquetReadStrategy(Prefetcher prefetcher, ParquetSettings settings, Executor parser) {
    this.prefetcher = prefetcher;
    this.settings = settings;
    this.parser = parser;
    this.file = prefetcher.objectName();
  }

  @Override
  public void onOpen() {
    long length = prefetcher.objectLength();
    if (length < ParquetFooter.TRAILER) {
      return;
    }
    ByteRange tail =
        ByteRange.ofLength(length - settings.tailSize(length), settings.tailSize(length));
    footer = prefetcher.fetch(tail).thenComposeAsync(bytes -> footerFrom(tail, bytes), parser);
  }

  private CompletableFuture<ParquetFooter> footerFrom(ByteRange tail, byte[] tailBytes) {
    try {
      int metadataLength = ParquetFooter.metadataLength(tailBytes, file);
      ByteRange metadata =
          ParquetFooter.metadataRange(prefetcher.objectLength(), metadataLength, file);
      if (tail.contains(metadata)) {
        int offset = (int) (metadata.start() - tail.start());
        return CompletableFuture.completedFuture(
            ParquetFooter.parse(tailBytes, offset, metadataLength));
      }
      ByteRange missing = ByteRange.of(metadata.start(), tail.start() - 1);
      return prefetcher
          .fetch(missing)
          .thenApplyAsync(
              head -> {
                byte[] block = new byte[metadataLength];
                System.arraycopy(head, 0, block, 0, head.length);
                System.arraycopy(tailBytes, 0, block, head.length, metadataLength - head.length);
                try {
                  return ParquetFooter.parse(block, 0, metadataLength);
                } catch (IOException e) {
                  throw new CompletionException(e);
                }
              },
              parser);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The parsed footer, once the tail is in; fails if the file is not valid Parquet. */
  CompletableFuture<ParquetFooter> footer() {
    return footer;
  }

  @Override
  public void beforeRead(long position, long length) {
    // Column prediction comes here; the footer prefetch at open is all this strategy does yet.
  }
}
