package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.benmanes.caffeine.cache.Caffeine;
import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.testing.RecordingPrefetcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ORC strategy on files written by Apache ORC: the footer it parses lists the stripes ORC's own
 * reader lists, with every codec ORC writes; and it fetches each stripe's footer ahead of the
 * reader.
 */
class OrcReadStrategyTest {

  private static final String NAME = "s3://bucket/t/data/part-0.orc";

  @TempDir Path dir;

  private static OrcReadStrategy open(RecordingPrefetcher prefetcher, long tailPrefetchSize) {
    return open(prefetcher, tailPrefetchSize, new Metrics());
  }

  /** A strategy over bytes in memory: once opened, its tail is parsed. */
  private static OrcReadStrategy open(
      RecordingPrefetcher prefetcher, long tailPrefetchSize, Metrics metrics) {
    return open(prefetcher, tailPrefetchSize, new ColumnHistory(10), metrics);
  }

  private static OrcReadStrategy open(
      RecordingPrefetcher prefetcher,
      long tailPrefetchSize,
      ColumnHistory history,
      Metrics metrics) {
    OrcReadStrategy strategy =
        new OrcReadStrategy(
            prefetcher,
            new OrcSettings(tailPrefetchSize, 10),
            history,
            Caffeine.newBuilder().<String, Boolean>build(),
            new FooterMetrics(metrics));
    strategy.onOpen();
    return strategy;
  }

  /** The layout parsed from the last {@code guess} bytes of the file {@code prefetcher} reads. */
  private static OrcLayout layout(RecordingPrefetcher prefetcher, long guess) throws Exception {
    ByteRange tail = ByteRange.ofLength(prefetcher.objectLength() - guess, guess);
    return prefetcher
        .fetch(tail)
        .thenCompose(bytes -> OrcLayout.from(prefetcher, tail, bytes))
        .get();
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionKind.class,
      names = {"NONE", "ZLIB", "SNAPPY", "LZ4", "LZO", "ZSTD"})
  void theFooterListsTheStripesOrcLists(CompressionKind compression) throws Exception {
    Path file = dir.resolve("part-" + compression + ".orc");
    byte[] content = OrcFiles.write(file, 16, 20_000, 256 * 1024, compression, 7);
    List<Stripe> expected = OrcFiles.stripes(file);
    assertTrue(expected.size() >= 3, expected.size() + " stripes");

    OrcProto.Footer footer =
        layout(new RecordingPrefetcher(NAME, content), OrcSettings.DEFAULT.tailPrefetchSize())
            .footer();

    assertEquals(expected, Stripe.of(footer));
    assertEquals(20_000, footer.getNumberOfRows());
  }

  @Test
  void aLongTailIsFetchedInTwoParts() throws Exception {
    byte[] content =
        OrcFiles.write(dir.resolve("long.orc"), 64, 8_000, 1 << 20, CompressionKind.ZLIB, 5);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(NAME, content);
    long tail = OrcTail.parse(NAME, content.length, content).length();
    assertTrue(tail > 1024, tail + " bytes of tail");

    OrcProto.Footer footer = layout(prefetcher, 1024).footer();

    assertEquals(
        List.of(
            ByteRange.ofLength(content.length - 1024, 1024),
            ByteRange.ofLength(content.length - tail, tail - 1024)),
        prefetcher.fetched.subList(0, 2));
    assertEquals(8_000, footer.getNumberOfRows());
  }

  @Test
  void eachStripesFooterIsFetchedOnceAheadOfTheReader() throws Exception {
    Path file = dir.resolve("stripes.orc");
    byte[] content = OrcFiles.write(file, 16, 20_000, 256 * 1024, CompressionKind.ZLIB, 9);
    List<Stripe> stripes = OrcFiles.stripes(file);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(NAME, content);
    Metrics metrics = new Metrics();
    OrcReadStrategy strategy = open(prefetcher, OrcSettings.DEFAULT.tailPrefetchSize(), metrics);
    assertEquals(2, metrics.get(Metric.FORMAT_FOOTERS_PARSED), "the tail, stripe 0's footer");
    List<ByteRange> tail = List.of(prefetcher.fetched.get(0));
    assertEquals(List.of(stripes.get(0).footer()), footersFetched(prefetcher, tail), "at open");

    for (Stripe stripe : stripes) {
      // As ORC reads a stripe: its footer, then its streams.
      strategy.beforePositionalRead(stripe.footer().start(), stripe.footerLength());
      strategy.beforePositionalRead(stripe.offset(), stripe.indexLength() + stripe.dataLength());
    }

    assertEquals(stripes.stream().map(Stripe::footer).toList(), footersFetched(prefetcher, tail));
    assertEquals(List.of(), prefetcher.prefetched, "nothing learned before the first file");
  }

  @Test
  void whenReadersTurnToOtherColumnsTheNextFileIsPredictedWithTheNewColumnsOnly() throws Exception {
    // A reader of another query reads another column; the old ones were predicted at its open.
    assertTheNextFileIsPredictedWithTheSecondReadersColumns(
        column -> column <= 4, column -> column == 9);
  }

  @Test
  void whenReadersTurnToFewerOfTheSameColumnsTheNextFileIsPredictedWithThoseOnly()
      throws Exception {
    // Every column the second reader reads was predicted for it; it counts all the same.
    assertTheNextFileIsPredictedWithTheSecondReadersColumns(
        column -> column <= 4, column -> column <= 2);
  }

  /**
   * One reader reads the {@code first} columns of a file and closes, then another reads the {@code
   * second} columns and closes; the next stream of the schema is predicted with the second's only.
   */
  private void assertTheNextFileIsPredictedWithTheSecondReadersColumns(
      IntPredicate first, IntPredicate second) throws Exception {
    Path file = dir.resolve("turn.orc");
    byte[] content = OrcFiles.write(file, 16, 20_000, 256 * 1024, CompressionKind.ZLIB, 3);
    List<StripeStreams> streams = OrcFiles.streams(file, 17);
    assertTrue(streams.size() >= 2, streams.size() + " stripes");
    ColumnHistory history = new ColumnHistory(10);
    readColumns(content, history, streams.get(0).streamsOf(first));
    readColumns(content, history, streams.get(0).streamsOf(second));

    RecordingPrefetcher prefetcher = new RecordingPrefetcher(NAME, content);
    // A gap smaller than a stripe, so that one column's streams are not taken for its whole data.
    prefetcher.mergeGap = 1024;
    open(prefetcher, OrcSettings.DEFAULT.tailPrefetchSize(), history, new Metrics());

    List<ByteRange> expected = new ArrayList<>();
    for (StripeStreams stripe : streams.subList(0, 2)) {
      expected.addAll(ByteRanges.coalesce(stripe.streamsOf(second), prefetcher.mergeGap()));
    }
    assertEquals(expected, prefetcher.prefetched.stream().sorted().toList());
  }

  /** A stream of {@code content} that reads {@code ranges} one by one, then closes. */
  private static void readColumns(byte[] content, ColumnHistory history, List<ByteRange> ranges)
      throws Exception {
    OrcReadStrategy strategy =
        open(
            new RecordingPrefetcher(NAME, content),
            OrcSettings.DEFAULT.tailPrefetchSize(),
            history,
            new Metrics());
    for (ByteRange range : ranges) {
      strategy.beforePositionalRead(range.start(), range.length());
    }
    strategy.close();
  }

  private static List<ByteRange> footersFetched(
      RecordingPrefetcher prefetcher, List<ByteRange> tail) {
    return prefetcher.fetched.stream().filter(range -> !tail.contains(range)).toList();
  }

  @Test
  void shortStepsThroughUnpredictedColumnsAreReadAheadOfUnlessTheyComeAsOneVectoredRead()
      throws Exception {
    Path file = dir.resolve("mixed.orc");
    byte[] content = OrcFiles.writeMixed(file, 8, 20_000, 256 * 1024, 4);
    StripeStreams first = OrcFiles.streams(file, 9).get(0);
    // The wide columns' streams of the first stripe, as a reader of alternate columns reads them.
    List<ByteRange> alternate = first.streamsOf(column -> column % 2 == 1);
    assertTrue(alternate.size() >= 4, alternate.toString());

    RecordingPrefetcher positional = new RecordingPrefetcher(NAME, content);
    OrcReadStrategy oneByOne = open(positional, OrcSettings.DEFAULT.tailPrefetchSize());
    for (ByteRange range : alternate) {
      oneByOne.beforePositionalRead(range.start(), range.length());
    }
    assertTrue(
        positional.prefetched.stream().anyMatch(ahead -> ahead.start() > alternate.get(1).end()),
        "read ahead of the reader: " + positional.prefetched);

    RecordingPrefetcher vectored = new RecordingPrefetcher(NAME, content);
    OrcReadStrategy atOnce = open(vectored, OrcSettings.DEFAULT.tailPrefetchSize());
    atOnce.beforeVectoredRead(alternate);
    assertEquals(List.of(), vectored.prefetched, "a vectored read asks for all it needs");
  }

  @Test
  void aFileThatIsNotOrcIsCountedAndReadOnWithoutPrediction() throws Exception {
    byte[] content =
        OrcFiles.write(dir.resolve("bad.orc"), 4, 2_000, 64 * 1024, CompressionKind.ZLIB, 3);
    byte[] notOrc = Arrays.copyOf(content, content.length);
    notOrc[notOrc.length - 1] = 0;
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(NAME, notOrc);
    Metrics metrics = new Metrics();
    OrcReadStrategy strategy = open(prefetcher, OrcSettings.DEFAULT.tailPrefetchSize(), metrics);

    strategy.beforePositionalRead(3, 1024);

    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_UNPARSED));
    assertEquals(0, metrics.get(Metric.FORMAT_FOOTERS_PARSED));
    assertEquals(1, prefetcher.fetched.size(), "only the tail");
    assertEquals(List.of(), prefetcher.prefetched);
  }

  @Test
  void aStripeFooterThatDoesNotParseIsCountedAndItsStripeLearnsNothing() throws Exception {
    Path file = dir.resolve("bad-stripe.orc");
    byte[] content = OrcFiles.write(file, 4, 20_000, 64 * 1024, CompressionKind.ZLIB, 5);
    ByteRange stripeFooter = OrcFiles.stripes(file).get(0).footer();
    Arrays.fill(content, (int) stripeFooter.start(), (int) stripeFooter.end() + 1, (byte) 0xff);
    Metrics metrics = new Metrics();

    open(new RecordingPrefetcher(NAME, content), OrcSettings.DEFAULT.tailPrefetchSize(), metrics);

    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_PARSED), "the tail");
    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_UNPARSED), "stripe 0's footer");
  }

  @Test
  void aPositionIsFoundInItsStripeAndNowhereElse() {
    List<Stripe> stripes =
        List.of(new Stripe(3, 10, 100, 7), new Stripe(120, 5, 50, 5), new Stripe(180, 1, 9, 10));
    assertEquals(-1, Stripe.indexOf(stripes, 0), "the file's header");
    assertEquals(0, Stripe.indexOf(stripes, 3));
    assertEquals(0, Stripe.indexOf(stripes, 119));
    assertEquals(1, Stripe.indexOf(stripes, 120));
    assertEquals(1, Stripe.indexOf(stripes, 179));
    assertEquals(2, Stripe.indexOf(stripes, 199));
    assertEquals(-1, Stripe.indexOf(stripes, 200), "the tail");
    assertEquals(-1, Stripe.indexOf(List.of(), 5));
  }

  @Test
  void theTailPrefetchSizeIsRead() {
    OrcSettings settings =
        OrcSettings.fromConfiguration(
            ConnectorConfiguration.of(Map.of("tail.prefetch.size", "64KB"), ""));
    assertEquals(new OrcSettings(64 * 1024, 1000), settings);
  }
}
