package io.seekwell.physical.disk;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.physical.Block;
import java.io.IOException;
import java.util.Optional;

/**
 * Fills a block with the granules of a {@link GranuleSource}, in runs, checking each, and counts
 * what it served. Belongs to one fill on one thread.
 */
final class GranuleFiller implements Block.Filler {

  /** The metrics a fill counts its bytes and its completed blocks in. */
  enum Counts {
    /** A disk tier's own slot. */
    OWN(Metric.DISK_BYTES_READ, Metric.DISK_HITS),
    /** Another slot of the directory. */
    SHARED(Metric.DISK_SHARED_BYTES_READ, Metric.DISK_SHARED_HITS);

    private final Metric bytes;
    private final Metric hits;

    Counts(Metric bytes, Metric hits) {
      this.bytes = bytes;
      this.hits = hits;
    }
  }

  private final GranuleSource source;
  private final long blockStart;
  private final long blockLength;
  private final Counts counts;
  private final Metrics metrics;
  private final Optional<Metrics> stream;
  private final Runnable onBad;
  private byte[] scratch;

  /**
   * Fills the block of {@code block} from {@code source}, counting in {@code metrics} and {@code
   * stream} as {@code counts} says, and telling {@code onBad} of a granule that fails.
   */
  GranuleFiller(
      GranuleSource source,
      ByteRange block,
      Counts counts,
      Metrics metrics,
      Optional<Metrics> stream,
      Runnable onBad) {
    this.source = source;
    this.blockStart = block.start();
    this.blockLength = block.length();
    this.counts = counts;
    this.metrics = metrics;
    this.stream = stream;
    this.onBad = onBad;
  }

  @Override
  public int fill(int at, byte[] array, int offset, int length) throws IOException {
    long position = blockStart + at;
    int granule = GranuleIndex.granuleOf(position);
    long granuleStart = GranuleIndex.startOf(granule);
    if (granuleStart == position) {
      int n = source.read(granule, array, offset, length, onBad);
      if (n > 0 || source.lengthOf(granule) <= length) {
        return n == 0 ? 0 : served(n, at + n == blockLength);
      }
    }
    // The block starts or ends inside this granule: it is read whole aside.
    int n = source.read(granule, scratch(), 0, GranuleIndex.GRANULE, onBad);
    int skip = (int) (position - granuleStart);
    if (n <= skip) {
      return 0;
    }
    int copied = Math.min(n - skip, length);
    System.arraycopy(scratch, skip, array, offset, copied);
    return served(copied, at + copied == blockLength);
  }

  /**
   * Counts {@code bytes} served from disk, and a hit if they complete the block, before the block
   * shows them to readers (so that a reader that has them sees them counted).
   */
  private int served(int bytes, boolean completesBlock) {
    count(metrics, bytes, completesBlock);
    stream.ifPresent(sink -> count(sink, bytes, completesBlock));
    return bytes;
  }

  private void count(Metrics sink, int bytes, boolean completesBlock) {
    sink.add(counts.bytes, bytes);
    if (completesBlock) {
      sink.increment(counts.hits);
    }
  }

  private byte[] scratch() {
    if (scratch == null) {
      scratch = new byte[GranuleIndex.GRANULE];
    }
    return scratch;
  }
}
