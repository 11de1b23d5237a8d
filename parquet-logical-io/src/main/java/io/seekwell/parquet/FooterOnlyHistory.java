package io.seekwell.parquet;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Whether readers of small Parquet files go on to read data or stop at the footer (as engines do
 * when they plan, import files or compute file metrics), and how long those footers are, so that
 * the next open fetches the whole file or just its footer with one GET.
 *
 * <p>The choice is made at open, before the footer (and so the schema) is known, so outcomes are
 * kept per parent prefix ({@code s3://bucket/table/data/}): files of one directory are alike. A
 * prefix not seen yet follows the plug-in's last outcome, and before any outcome an open predicts a
 * footer-only read with a {@value #COLD_FOOTER_GUESS}-byte tail: a reader that then reads data
 * costs one more GET, once, after which files are fetched whole again. Bounded: the least recently
 * used prefixes are forgotten first. Thread-safe.
 */
final class FooterOnlyHistory {

  /** The tail fetched before any footer length is known. */
  static final long COLD_FOOTER_GUESS = 16 * 1024;

  /** What the last reader of a file under one prefix did, and the tail to fetch for the next. */
  private record Outcome(boolean footerOnly, long tailGuess) {}

  private final Cache<String, Outcome> byPrefix;
  private volatile Outcome last = new Outcome(true, COLD_FOOTER_GUESS);

  FooterOnlyHistory(long maxPrefixes) {
    this.byPrefix = Caffeine.newBuilder().maximumSize(maxPrefixes).executor(Runnable::run).build();
  }

  /** Whether the next reader of a small file named {@code objectName} is expected to stop there. */
  boolean predictsFooterOnly(String objectName) {
    return outcome(objectName).footerOnly();
  }

  /**
   * The tail to fetch for a footer-only open of {@code objectName}: the last such footer's length
   * (footer and trailer) and a quarter more, for footers that grow a little from file to file.
   */
  long tailGuess(String objectName) {
    return outcome(objectName).tailGuess();
  }

  /** A reader of {@code objectName} read only its footer, of {@code footerBytes} with trailer. */
  void footerOnly(String objectName, long footerBytes) {
    record(objectName, new Outcome(true, footerBytes + footerBytes / 4));
  }

  /** A reader of {@code objectName} read data beyond its footer. */
  void readsData(String objectName) {
    record(objectName, new Outcome(false, outcome(objectName).tailGuess()));
  }

  private Outcome outcome(String objectName) {
    Outcome known = byPrefix.getIfPresent(prefix(objectName));
    return known != null ? known : last;
  }

  private void record(String objectName, Outcome outcome) {
    byPrefix.put(prefix(objectName), outcome);
    last = outcome;
  }

  /** The parent prefix of {@code objectName}, up to and with its last slash. */
  static String prefix(String objectName) {
    return objectName.substring(0, objectName.lastIndexOf('/') + 1);
  }
}
