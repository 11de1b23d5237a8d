package io.seekwell.parquet;

import io.seekwell.common.config.ConnectorConfiguration;

/**
 * How much of a Parquet file's end is fetched at open. Immutable. Keys, under {@code
 * logicalio.parquet.}: {@code footer.prefetch.size} (default 1 MiB + 32 KiB) for every file, and
 * for files above {@code large.file.threshold} (default 1 GiB) the bytes before it up to {@code
 * large.footer.prefetch.size} (default 9 MiB) from the end, with a GET of their own.
 *
 * @param footerPrefetchSize the tail fetched for every file; the footer is parsed once it is in
 * @param largeFooterPrefetchSize how far from the end larger files are fetched
 * @param largeFileThreshold the size above which a file counts as large
 * @param prefetchMode which learned columns are prefetched ({@code prefetch.mode}, ROW_GROUP)
 * @param historySize how many schemas' columns are remembered ({@code history.size}, 1000)
 * @param mergeGap learned column chunks this close are fetched together ({@code merge.gap}, 1 MiB);
 *     the physical layer splits what is fetched together into GETs of its target request size
 * @param footerOnlyPrediction whether opens of files no longer than {@code footerPrefetchSize}
 *     fetch only their footer when readers of files beside them read only footers ({@code
 *     footer.only.prediction}, true); see {@link FooterOnlyHistory}
 */
record ParquetSettings(
    long footerPrefetchSize,
    long largeFooterPrefetchSize,
    long largeFileThreshold,
    PrefetchMode prefetchMode,
    long historySize,
    long mergeGap,
    boolean footerOnlyPrediction) {

  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  static final ParquetSettings DEFAULT =
      new ParquetSettings(
          MIB + 32 * KIB, 9 * MIB, 1024 * MIB, PrefetchMode.ROW_GROUP, 1000, MIB, true);

  static ParquetSettings fromConfiguration(ConnectorConfiguration parquet) {
    return new ParquetSettings(
        parquet.getSize("footer.prefetch.size", DEFAULT.footerPrefetchSize, ParquetFooter.TRAILER),
        parquet.getSize(
            "large.footer.prefetch.size", DEFAULT.largeFooterPrefetchSize, ParquetFooter.TRAILER),
        parquet.getSize("large.file.threshold", DEFAULT.largeFileThreshold, 0),
        parquet.getEnum("prefetch.mode", PrefetchMode.class, DEFAULT.prefetchMode),
        parquet.getInt("history.size", (int) DEFAULT.historySize, 1),
        parquet.getSize("merge.gap", DEFAULT.mergeGap, 0),
        parquet.getBoolean("footer.only.prediction", DEFAULT.footerOnlyPrediction));
  }

  /** The tail to fetch at open of a file of {@code fileLength} bytes. */
  long tailSize(long fileLength) {
    long size =
        fileLength > largeFileThreshold
            ? Math.max(largeFooterPrefetchSize, footerPrefetchSize)
            : footerPrefetchSize;
    return Math.min(size, fileLength);
  }

  /** Whether a file of {@code fileLength} bytes is one whole tail: small enough to fetch whole. */
  boolean isSmall(long fileLength) {
    return fileLength <= footerPrefetchSize;
  }

  /** The end of the tail that is fetched first, and parsed as soon as it is in. */
  long footerSize(long fileLength) {
    return Math.min(footerPrefetchSize, fileLength);
  }
}
