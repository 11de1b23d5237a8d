package io.seekwell.parquet;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link Prefetcher} over a file's bytes in memory: serves what is fetched and records what is
 * fetched and prefetched (prefetches are only recorded).
 */
final class RecordingPrefetcher implements Prefetcher {

  final List<ByteRange> prefetched = new CopyOnWriteArrayList<>();
  final List<ByteRange> fetched = new CopyOnWriteArrayList<>();
  private final byte[] file;
  volatile boolean refusing; // prefetches find no memory: refused, not recorded

  RecordingPrefetcher(byte[] file) {
    this.file = file;
  }

  @Override
  public String objectName() {
    return "s3://bucket/table.parquet";
  }

  @Override
  public long objectLength() {
    return file.length;
  }

  @Override
  public long requestSize() {
    return 8L << 20;
  }

  @Override
  public boolean prefetch(ByteRange range) {
    if (refusing) {
      return false;
    }
    prefetched.add(range);
    return true;
  }

  @Override
  public boolean prefetchOnce(ByteRange range) {
    return prefetch(range);
  }

  @Override
  public CompletableFuture<byte[]> fetch(ByteRange range) {
    fetched.add(range);
    return CompletableFuture.completedFuture(
        Arrays.copyOfRange(file, (int) range.start(), (int) range.end() + 1));
  }
}
