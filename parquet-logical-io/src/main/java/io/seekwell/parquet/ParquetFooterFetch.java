package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Reads one Parquet file's footer into its {@link ParquetLayout}: from the tail fetched at open,
 * parsed on the plug-in's executor as soon as it is in, with one more fetch for the rest of a
 * footer longer than that tail. Stateless; safe from any thread.
 */
final class ParquetFooterFetch {

  private final Prefetcher prefetcher;
  private final Executor parser;
  private final String file;

  ParquetFooterFetch(Prefetcher prefetcher, Executor parser) {
    this.prefetcher = prefetcher;
    this.parser = parser;
    this.file = prefetcher.objectName();
  }

  /**
   * The layout, once {@code tailBytes}, the bytes of the file's {@code tail}, are in; fails if the
   * file is not valid Parquet or a fetch fails.
   */
  CompletableFuture<ParquetLayout> layout(ByteRange tail, CompletableFuture<byte[]> tailBytes) {
    return tailBytes.thenComposeAsync(bytes -> layoutFrom(tail, bytes), parser);
  }

  private CompletableFuture<ParquetLayout> layoutFrom(ByteRange tail, byte[] tailBytes) {
    try {
      int metadataLength = ParquetFooter.metadataLength(tailBytes, file);
      long footerBytes = metadataLength + (long) ParquetFooter.TRAILER;
      ByteRange metadata =
          ParquetFooter.metadataRange(prefetcher.objectLength(), metadataLength, file);
      if (tail.contains(metadata)) {
        int offset = (int) (metadata.start() - tail.start());
        return CompletableFuture.completedFuture(
            ParquetLayout.of(ParquetFooter.parse(tailBytes, offset, metadataLength), footerBytes));
      }
      ByteRange missing = ByteRange.of(metadata.start(), tail.start() - 1);
      return prefetcher
          .fetch(missing)
          .thenApplyAsync(
              head -> ParquetLayout.of(joined(head, tailBytes, metadataLength), footerBytes),
              parser);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static ParquetFooter joined(byte[] head, byte[] tailBytes, int metadataLength) {
    byte[] block = new byte[metadataLength];
    System.arraycopy(head, 0, block, 0, head.length);
    System.arraycopy(tailBytes, 0, block, head.length, metadataLength - head.length);
    try {
      return ParquetFooter.parse(block, 0, metadataLength);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }
}
