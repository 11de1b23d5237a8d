package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import io.seekwell.physical.FetchPurpose;
import io.seekwell.physical.ObjectReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/** Lets a read strategy prefetch and read through its stream's {@link ObjectReader}. */
final class ReaderPrefetcher implements Prefetcher {

  private final S3URI uri;
  private final ObjectReader reader;
  private final LongSupplier mergeGap;

  /**
   * A prefetcher over {@code reader}, merging ranges by {@code mergeGap}, whose read-ahead requests
   * grow to the reader's request size but never past its {@link ObjectReader#largestPrefetch()} (so
   * that the read-ahead window, at most three quarters of the memory limit, holds twelve requests
   * in flight, not one or two large ones, when the limit is small).
   */
  ReaderPrefetcher(S3URI uri, ObjectReader reader, LongSupplier mergeGap) {
    this.uri = uri;
    this.reader = reader;
    this.mergeGap = mergeGap;
  }

  @Override
  public String objectName() {
    return uri.toString();
  }

  @Override
  public long objectLength() {
    return reader.length();
  }

  @Override
  public long requestSize() {
    return Math.min(reader.requestSize(), reader.largestPrefetch());
  }

  @Override
  public long mergeGap() {
    return mergeGap.getAsLong();
  }

  @Override
  public boolean prefetch(ByteRange range) throws IOException {
    return reader.prefetch(range, FetchPurpose.AHEAD);
  }

  @Override
  public boolean prefetchOnce(ByteRange range) throws IOException {
    return reader.prefetch(range, FetchPurpose.SCAN);
  }

  @Override
  public void prefetchInTurn(ByteRange range) throws IOException {
    reader.prefetchInTurn(range);
  }

  @Override
  public CompletableFuture<byte[]> fetch(ByteRange range) {
    byte[] bytes = new byte[Math.toIntExact(range.length())];
    try {
      if (reader.prefetch(range, FetchPurpose.AHEAD)) {
        CompletableFuture<Void> copied = reader.copyWhenArrived(range, ByteBuffer.wrap(bytes), 0);
        if (copied != null) {
          return copied.thenApply(ignored -> bytes);
        }
      }
      return CompletableFuture.failedFuture(
          new IOException("No memory to fetch " + range + " ahead"));
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
