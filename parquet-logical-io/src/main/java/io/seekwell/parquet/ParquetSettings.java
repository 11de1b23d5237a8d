package io.seekwell.parquet;

import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.config.Setting;
import io.seekwell.common.config.SettingGroup;

/**
 * How the Parquet plug-in reads a file's end and its learned columns. Immutable. Each key, under
 * {@code logicalio.parquet.}, is declared once in {@link #SETTINGS}.
 *
 * @param footerPrefetchSize the tail fetched for every file; the footer is parsed once it is in
 * @param largeFooterPrefetchSize how far from the end files above {@code largeFileThreshold} are
 *     fetched, the bytes before the tail with a GET of their own
 * @param largeFileThreshold the size above which a file counts as large
 * @param prefetchMode which learned columns are prefetched
 * @param historySize how many schemas' columns are remembered
 * @param mergeGap learned column chunks this close are fetched together; the physical layer splits
 *     what is fetched together into GETs of its target request size
 * @param footerOnlyPrediction whether opens of files no longer than {@code footerPrefetchSize}
 *     fetch only their footer when readers of files beside them read only footers; see {@link
 *     FooterOnlyHistory}
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

  private static final Setting<Long> FOOTER_PREFETCH_SIZE =
      Setting.size(
              "footer.prefetch.size",
              MIB + 32 * KIB,
              ParquetFooter.TRAILER,
              "the tail fetched with one GET at open (footer plus page indexes); once a file under"
                  + " the same prefix has been parsed, at most this: what that file needed after"
                  + " its column chunks and a quarter more")
          .describingDefault("1 MiB + 32 KiB");
  private static final Setting<Long> LARGE_FOOTER_PREFETCH_SIZE =
      Setting.size(
          "large.footer.prefetch.size",
          9 * MIB,
          ParquetFooter.TRAILER,
          "for larger files, the bytes before that tail up to this far from the end are fetched"
              + " too, until a file under the same prefix has been parsed");
  private static final Setting<Long> LARGE_FILE_THRESHOLD =
      Setting.size("large.file.threshold", 1024 * MIB, 0, "files above this get the large tail");
  private static final Setting<PrefetchMode> PREFETCH_MODE =
      Setting.choice(
          "prefetch.mode",
          PrefetchMode.class,
          PrefetchMode.ROW_GROUP,
          "which learned columns are prefetched");
  private static final Setting<Integer> HISTORY_SIZE =
      Setting.count("history.size", 1000, 1, "how many schemas' learned columns are remembered");
  private static final Setting<Long> MERGE_GAP =
      Setting.size(
          "merge.gap", MIB, 0, "learned column chunks this close are fetched with one GET");
  private static final Setting<Boolean> FOOTER_ONLY_PREDICTION =
      Setting.flag(
          "footer.only.prediction",
          true,
          "small files (up to `footer.prefetch.size`) are opened with one GET of about their"
              + " footer when readers of the files beside them read only footers");

  /** The plug-in's settings, under {@code logicalio.parquet.}. */
  static final SettingGroup SETTINGS =
      SettingGroup.of(
          "logicalio.parquet.",
          FOOTER_PREFETCH_SIZE,
          LARGE_FOOTER_PREFETCH_SIZE,
          LARGE_FILE_THRESHOLD,
          PREFETCH_MODE,
          HISTORY_SIZE,
          MERGE_GAP,
          FOOTER_ONLY_PREDICTION);

  static final ParquetSettings DEFAULT =
      new ParquetSettings(
          FOOTER_PREFETCH_SIZE.defaultValue(),
          LARGE_FOOTER_PREFETCH_SIZE.defaultValue(),
          LARGE_FILE_THRESHOLD.defaultValue(),
          PREFETCH_MODE.defaultValue(),
          HISTORY_SIZE.defaultValue(),
          MERGE_GAP.defaultValue(),
          FOOTER_ONLY_PREDICTION.defaultValue());

  static ParquetSettings fromConfiguration(ConnectorConfiguration parquet) {
    return new ParquetSettings(
        FOOTER_PREFETCH_SIZE.read(parquet),
        LARGE_FOOTER_PREFETCH_SIZE.read(parquet),
        LARGE_FILE_THRESHOLD.read(parquet),
        PREFETCH_MODE.read(parquet),
        HISTORY_SIZE.read(parquet),
        MERGE_GAP.read(parquet),
        FOOTER_ONLY_PREDICTION.read(parquet));
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
