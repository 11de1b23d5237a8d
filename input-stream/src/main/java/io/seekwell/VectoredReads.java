package io.seekwell;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.physical.FetchPurpose;
import io.seekwell.physical.ObjectReader;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * Vectored reads: validates and sorts the ranges, merges ranges whose gap is at most the merge gap
 * into runs that the physical layer splits into GETs of equal parts of at most the target request
 * size (a range may so complete from two GETs), sends them all at once, and completes each range's
 * future as soon as its own bytes are in, on the thread that received them, so no thread waits per
 * range. Bytes no memory can be found for are read with GETs of their own on fetch threads,
 * straight into their range's buffer; the rest of the range is copied from the blocks that hold it.
 * Thread-safe; one per factory.
 */
final class VectoredReads {

  private final LongSupplier mergeGap;

  VectoredReads(LongSupplier mergeGap) {
    this.mergeGap = mergeGap;
  }

  /**
   * Reads {@code sorted} ranges (as {@link #validated} returns them) of the object {@code reader}
   * reads; see the stream's readVectored.
   *
   * @return how many runs the readable ranges were merged into
   */
  int read(
      S3URI uri,
      ObjectReader reader,
      List<ObjectRange> sorted,
      IntFunction<ByteBuffer> allocate,
      Consumer<ByteBuffer> release)
      throws IOException {
    long length = reader.length();
    List<ObjectRange> readable = new ArrayList<>();
    for (ObjectRange range : sorted) {
      if (range.getLength() > length - range.getOffset()) {
        range
            .getByteBuffer()
            .completeExceptionally(
                new EOFException(
                    "Range " + range + " reaches past the end of " + uri + " (" + length + ")"));
      } else if (range.getLength() == 0) {
        range.getByteBuffer().complete(allocate.apply(0));
      } else {
        readable.add(range);
      }
    }
    List<ByteRange> wanted =
        readable.stream()
            .map(range -> ByteRange.ofLength(range.getOffset(), range.getLength()))
            .toList();
    List<ByteRange> runs = ByteRanges.coalesce(wanted, mergeGap.getAsLong());
    for (ByteRange merged : runs) {
      reader.prefetch(merged, FetchPurpose.SCAN);
    }
    for (ObjectRange range : readable) {
      deliver(reader, range, allocate, release);
    }
    return runs.size();
  }

  private void deliver(
      ObjectReader reader,
      ObjectRange range,
      IntFunction<ByteBuffer> allocate,
      Consumer<ByteBuffer> release) {
    ByteBuffer buffer = allocate.apply(range.getLength());
    int index = buffer.position();
    ByteRange bytes = ByteRange.ofLength(range.getOffset(), range.getLength());
    reader
        .readInto(bytes, buffer, index)
        .whenComplete(
            (ignored, failure) -> {
              if (failure == null) {
                buffer.limit(index + range.getLength()).position(index);
                range.getByteBuffer().complete(buffer);
              } else {
                release.accept(buffer);
                range.getByteBuffer().completeExceptionally(Futures.unwrap(failure));
              }
            });
  }

  /** Ranges in order of offset, checked: no negative offset or length, no overlap. */
  static List<ObjectRange> validated(S3URI uri, List<ObjectRange> ranges) {
    Objects.requireNonNull(ranges, "ranges");
    List<ObjectRange> sorted = new ArrayList<>(ranges);
    for (ObjectRange range : sorted) {
      Objects.requireNonNull(range, "range");
      if (range.getOffset() < 0 || range.getLength() < 0) {
        throw new IllegalArgumentException("Invalid range " + range + " for " + uri);
      }
    }
    sorted.sort(Comparator.comparingLong(ObjectRange::getOffset));
    for (int i = 1; i < sorted.size(); i++) {
      ObjectRange previous = sorted.get(i - 1);
      if (previous.getLength() > sorted.get(i).getOffset() - previous.getOffset()) {
        throw new IllegalArgumentException(
            "Overlapping ranges " + previous + " and " + sorted.get(i) + " for " + uri);
      }
    }
    return sorted;
  }
}
