package io.seekwell.logical.testing;

import io.seekwell.common.ByteRange;
import io.seekwell.logical.Prefetcher;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link Prefetcher} over a file's bytes in memory: serves what is fetched and records what is
 * fetched and prefetched (prefetches are only recorded). One made {@link #ofLength} has no bytes:
 * it only records prefetches.
 */
public final class RecordingPrefetcher implements Prefetcher {

  /** What was prefetched, in order. */
  public final List<ByteRange> prefetched = new CopyOnWriteArrayList<>();

  /** What was fetched, in order. */
  public final List<ByteRange> fetched = new CopyOnWriteArrayList<>();

  /** When set, prefetches find no memory: refused, not recorded. */
  public volatile boolean refusing;

  /** Prefetches longer than this find no memory: refused, not recorded. */
  public volatile long refusingAbove = Long.MAX_VALUE;

  /** What {@link #requestSize()} answers: 8 MiB unless set. */
  public volatile long requestSize = 8L << 20;

  /** What {@link #mergeGap()} answers: 1 MiB unless set. */
  public volatile long mergeGap = 1L << 20;

  private final String name;
  private final long length;
  private final byte[] file;

  /** Over {@code file}, named {@code name} ({@code s3://bucket/key}). */
  public RecordingPrefetcher(String name, byte[] file) {
    this(name, file.length, file);
  }

  private RecordingPrefetcher(String name, long length, byte[] file) {
    this.name = name;
    this.length = length;
    this.file = file;
  }

  /** Over an object of {@code length} bytes that are not given: fetching is refused. */
  public static RecordingPrefetcher ofLength(String name, long length) {
    return new RecordingPrefetcher(name, length, null);
  }

  @Override
  public String objectName() {
    return name;
  }

  @Override
  public long objectLength() {
    return length;
  }

  @Override
  public long requestSize() {
    return requestSize;
  }

  @Override
  public long mergeGap() {
    return mergeGap;
  }

  @Override
  public boolean prefetch(ByteRange range) {
    if (refusing || range.length() > refusingAbove) {
      return false;
    }
    prefetched.add(range);
    return true;
  }

  @Override
  public boolean prefetchOnce(ByteRange range) {
    return prefetch(range);
  }

  /** Recorded with the prefetches, even while refusing: what finds no memory waits for it. */
  @Override
  public void prefetchInTurn(ByteRange range) {
    prefetched.add(range);
  }

  @Override
  public CompletableFuture<byte[]> fetch(ByteRange range) {
    if (file == null) {
      throw new UnsupportedOperationException("only prefetches are recorded");
    }
    fetched.add(range);
    return CompletableFuture.completedFuture(
        Arrays.copyOfRange(file, (int) range.start(), (int) range.end() + 1));
  }
}
