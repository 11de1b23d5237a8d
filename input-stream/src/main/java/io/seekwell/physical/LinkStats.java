package io.seekwell.physical;

/**
 * What GETs have shown about the link to the store: time to first byte and per-request throughput,
 * as moving averages. From them come the break-even gap for merging ranges (reading a gap of {@code
 * ttfb × throughput} bytes costs as much time as a new request) and the size GETs are split into.
 *
 * <p><b>Request size.</b> Every GET has a fixed cost besides its bytes: building, signing and
 * sending it, and the store's work to start a response. Where one GET transfers slowly (a far
 * store: tens of MB/s per connection), that cost is small next to its transfer, and many GETs of
 * the target size in parallel are what fills the link. Where one GET transfers fast (a near store),
 * the fixed cost is what limits, and parallel GETs add little. So GETs are sized for about {@link
 * #TRANSFER_SECONDS} of transfer at the measured throughput: the target size doubled while that
 * fits, up to the largest size, and halved again only when it is more than twice what that
 * throughput needs. A far link keeps the target size.
 *
 * <p><b>Missed reads.</b> A GET for a read that found nothing cached waits a whole time to first
 * byte; bytes beyond the read cost only their transfer, and any later read that lands in them saves
 * a GET. So such a GET may carry the bytes the link transfers in {@link #CHEAP_SHARE} of its time
 * to first byte: at most that share slower, for fewer requests on random reads.
 *
 * <p><b>Design notes.</b> Thread-safe: {@link #record} updates the averages under this object's
 * lock, once per GET; {@link #requestSize} and {@link #cheapExtraBytes} are volatile reads, so
 * planning a read takes no lock.
 */
final class LinkStats {

  static final long MIN_GAP = 64 * 1024;
  static final long MAX_GAP = 8 * 1024 * 1024;
  static final long DEFAULT_GAP = 1024 * 1024;

  /** The transfer time a GET is sized for, once throughput is known. */
  static final double TRANSFER_SECONDS = 0.064;

  /** The share of a GET's time to first byte that a missed read's extra bytes may take. */
  static final double CHEAP_SHARE = 0.1;

  private static final double WEIGHT = 0.2;
  private static final long MIN_TRANSFER_BYTES = 64 * 1024;

  private final long targetRequestSize;
  private final long maxRequestSize;
  private double firstByteSeconds = -1;
  private double bytesPerSecond = -1;
  private volatile long requestSize;
  private volatile long cheapExtraBytes;

  /** Statistics that size GETs from {@code targetRequestSize} up to {@code maxRequestSize}. */
  LinkStats(long targetRequestSize, long maxRequestSize) {
    if (maxRequestSize < targetRequestSize) {
      throw new IllegalArgumentException(
          "maxRequestSize " + maxRequestSize + " < targetRequestSize " + targetRequestSize);
    }
    this.targetRequestSize = targetRequestSize;
    this.maxRequestSize = maxRequestSize;
    this.requestSize = targetRequestSize;
  }

  /** Records one GET: its time to first byte and how long its body took. */
  synchronized void record(long firstByteNanos, long bytes, long transferNanos) {
    firstByteSeconds = average(firstByteSeconds, firstByteNanos / 1e9);
    if (bytes >= MIN_TRANSFER_BYTES && transferNanos > 0) {
      bytesPerSecond = average(bytesPerSecond, bytes / (transferNanos / 1e9));
      requestSize = sizeFor(bytesPerSecond * TRANSFER_SECONDS);
    }
    if (bytesPerSecond > 0) {
      cheapExtraBytes = Math.round(firstByteSeconds * bytesPerSecond * CHEAP_SHARE);
    }
  }

  /**
   * The size for GETs that should carry {@code transferBytes}: the current size doubled while twice
   * it fits, or halved while it is more than twice too large. Between the two it stays, so that a
   * throughput near a boundary does not make sizes flip (blocks of one size reuse each other's
   * arrays).
   */
  private long sizeFor(double transferBytes) {
    long size = requestSize;
    while (size <= maxRequestSize / 2 && size * 2 <= transferBytes) {
      size *= 2;
    }
    while (size / 2 >= targetRequestSize && size > 2 * transferBytes) {
      size /= 2;
    }
    return size;
  }

  /** The size to split GETs into now: the target size until a GET has been measured. */
  long requestSize() {
    return requestSize;
  }

  /**
   * How many bytes a GET can carry in {@link #CHEAP_SHARE} of its time to first byte, at the
   * measured throughput; 0 until a GET has been measured.
   */
  long cheapExtraBytes() {
    return cheapExtraBytes;
  }

  /** The break-even merge gap, within 64 KiB and 8 MiB; 1 MiB until there is data. */
  synchronized long mergeGap() {
    if (firstByteSeconds < 0 || bytesPerSecond < 0) {
      return DEFAULT_GAP;
    }
    long gap = (long) (firstByteSeconds * bytesPerSecond);
    return Math.max(MIN_GAP, Math.min(MAX_GAP, gap));
  }

  private static double average(double current, double sample) {
    return current < 0 ? sample : current + WEIGHT * (sample - current);
  }
}
