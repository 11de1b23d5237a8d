package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.logical.ColumnHistory;
import io.seekwell.logical.FooterMetrics;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.logical.testing.RecordingPrefetcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the strategy prefetches after the reads it observes, on a local Parquet file. */
class ParquetReadStrategyTest {

  private static final List<String> PROJECTED = List.of("c2", "c7", "c15");

  @TempDir static Path dir;
  private static byte[] file;
  // The file's footer, as the test parses it.
  private static ParquetFooter footer;

  @BeforeAll
  static void writeFile() throws IOException {
    Path written =
        ParquetFiles.write(
            dir.resolve("table.parquet"), ParquetFiles.doubles(20), 100_000, 2_000_000, 11);
    file = Files.readAllBytes(written);
    int metadataLength = ParquetFooter.metadataLength(file, written.toString());
    footer = ParquetFooter.parse(file, file.length - 8 - metadataLength, metadataLength);
  }

  @Test
  void aVectoredReadIsLearnedAsOneBatchAndItsNextRowGroupFetchedAsOneRun() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy strategy = open(prefetcher);
    assertTrue(rowGroups(footer) >= 3, "the file needs at least three row groups");
    assertEquals(List.of(), prefetcher.prefetched, "nothing is learned before the first read");

    strategy.beforeVectoredRead(projectedChunks(footer, 0));

    // The three chunks of row group 1 lie within the merge gap of each other: one run.
    assertEquals(List.of(projectedRun(footer, 1)), prefetcher.prefetched);
  }

  @Test
  void thePluginsStrategyLearnsAVectoredReadAsOneBatch() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    Metrics metrics = new Metrics();
    try (ParquetFormatPlugin plugin = new ParquetFormatPlugin()) {
      plugin.configure(ConnectorConfiguration.empty(), metrics);
      ReadStrategy strategy = plugin.newStrategy(prefetcher);
      strategy.onOpen();
      Eventually.holds(
          "the footer is parsed", () -> metrics.get(Metric.FORMAT_FOOTERS_PARSED) == 1);

      strategy.beforeVectoredRead(projectedChunks(footer, 0));

      assertEquals(List.of(projectedRun(footer, 1)), prefetcher.prefetched);
    }
  }

  @Test
  void aFileThatIsNotParquetIsCountedAndReadOnWithoutPrediction() throws Exception {
    byte[] notParquet = Arrays.copyOf(file, file.length);
    notParquet[notParquet.length - 1] = 'X';
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/bad.parquet", notParquet);
    Metrics metrics = new Metrics();
    ParquetReadStrategy strategy =
        open(prefetcher, ParquetSettings.DEFAULT, new ColumnHistory(10), metrics);

    strategy.beforeVectoredRead(projectedChunks(footer, 0));

    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_UNPARSED));
    assertEquals(0, metrics.get(Metric.FORMAT_FOOTERS_PARSED));
    assertEquals(List.of(), prefetcher.prefetched);
  }

  @Test
  void readsOneAtATimePrefetchEachColumnWhenItIsLearned() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy strategy = open(prefetcher);

    for (ByteRange chunk : projectedChunks(footer, 0)) {
      strategy.beforePositionalRead(chunk.start(), chunk.length());
    }

    assertEquals(projectedChunks(footer, 1), prefetcher.prefetched);
  }

  @Test
  void aColdRowGroupReadInBuffersOneAfterAnotherIsReadAheadToItsEndInAGrowingWindow()
      throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy strategy = open(prefetcher);
    long start = rowGroupRange(footer, 0).start();
    long end = rowGroupRange(footer, 0).end();
    int buffer = 64 * 1024;
    assertTrue(end - start > 16 * buffer, "row group 0 spans " + (end - start) + " bytes");

    // A reader without vectored reads reading all of row group 0, as Parquet's reader does.
    readInBuffers(strategy, ByteRange.of(start, end), buffer);

    List<ByteRange> ahead =
        prefetcher.prefetched.stream().filter(range -> range.start() <= end).toList();
    // The second read starts the run: from its end to the row group's end, asked for in windows of
    // twice the read, doubling, and no byte past the row group.
    assertEquals(start + 2 * buffer, ahead.get(0).start());
    assertEquals(2L * buffer, ahead.get(0).length());
    for (int i = 1; i < ahead.size(); i++) {
      assertEquals(ahead.get(i - 1).end() + 1, ahead.get(i).start(), "contiguous: " + ahead);
    }
    assertEquals(end, ahead.get(ahead.size() - 1).end());
    long reads = (end - start) / buffer + 1;
    assertTrue(ahead.size() <= 64 - Long.numberOfLeadingZeros(reads), ahead.size() + " windows");
  }

  @Test
  void aPredictedRowGroupReadInBuffersOneAfterAnotherIsNotReadAheadAgain() throws Exception {
    ColumnHistory history = new ColumnHistory(10);
    ParquetReadStrategy first =
        open(new RecordingPrefetcher("s3://bucket/table.parquet", file), history);
    ByteRange rowGroup = rowGroupRange(footer, 0);
    readInBuffers(first, rowGroup, 64 * 1024);

    // A second file of the schema: nothing at open; its first read of a column prefetches the
    // learned columns of its row group and the next.
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy second = open(prefetcher, history);
    assertEquals(List.of(), prefetcher.prefetched);
    second.beforePositionalRead(rowGroup.start(), 64 * 1024);
    List<ByteRange> predicted = List.copyOf(prefetcher.prefetched);
    assertTrue(
        predicted.stream().anyMatch(range -> range.contains(rowGroup.start())), "" + predicted);
    assertTrue(
        predicted.stream().anyMatch(range -> range.contains(rowGroupRange(footer, 1).start())),
        "" + predicted);

    readInBuffers(second, rowGroup, 64 * 1024);

    // Reading row group 0 prefetches row group 2 (one ahead of row group 1), nothing before it.
    assertPrefetchedOnlyAfter(prefetcher, predicted.size(), rowGroupRange(footer, 1).end());
  }

  @Test
  void predictedChunksAreAllAskedForInTurnWhenMemoryIsShort() throws Exception {
    ColumnHistory history = historyOfOneProjectedReader();

    // No memory for anything now: the predicted runs still go to the prefetcher, to wait there.
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    prefetcher.refusing = true;
    open(prefetcher, history).beforePositionalRead(projectedChunks(footer, 0).get(0).start(), 1);

    assertEquals(runsOfFirstTwoRowGroups(PROJECTED), prefetcher.prefetched);
  }

  @Test
  void whenReadersTurnToOtherColumnsNoFileIsPredictedWithTheOldOnes() throws Exception {
    ColumnHistory history = historyOfOneProjectedReader();
    // A reader of the old query is still open.
    ParquetReadStrategy stillOpen =
        open(new RecordingPrefetcher("s3://bucket/table.parquet", file), history);
    stillOpen.beforeVectoredRead(projectedChunks(footer, 0));
    // A reader of another query reads another column first: nothing of the old ones is fetched,
    // not even those of the open reader, only its own column one row group ahead.
    List<String> other = List.of("c4");
    RecordingPrefetcher turning = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy second = open(turning, history);
    second.beforeVectoredRead(chunks(footer, 0, other));
    second.beforeVectoredRead(chunks(footer, 1, other));
    second.close();
    stillOpen.close();
    List<ByteRange> ownOnly = new ArrayList<>(chunks(footer, 1, other));
    ownOnly.addAll(chunks(footer, 2, other));
    assertEquals(ownOnly, turning.prefetched);

    // The next file is predicted with the new column only.
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    open(prefetcher, history).beforePositionalRead(chunks(footer, 0, other).get(0).start(), 1);

    assertEquals(runsOfFirstTwoRowGroups(other), prefetcher.prefetched);
  }

  @Test
  void theNextFileBesideAParsedOneFetchesTheTailItNeededAndAQuarterMore() throws Exception {
    long dataEnd = 0;
    for (ColumnChunk chunk : footer.columnChunks()) {
      dataEnd = Math.max(dataEnd, chunk.range().end() + 1);
    }
    long needed = file.length - dataEnd;
    long configured = ParquetSettings.DEFAULT.footerSize(file.length);
    assertTrue(needed + needed / 4 < configured, needed + " of " + configured);
    TailHistory tails = new TailHistory(10);
    RecordingPrefetcher first = new RecordingPrefetcher("s3://bucket/t/part-0.parquet", file);
    open(first, ParquetSettings.DEFAULT, new ColumnHistory(10), tails, new Metrics());
    assertEquals(List.of(ByteRange.ofLength(file.length - configured, configured)), first.fetched);

    RecordingPrefetcher beside = new RecordingPrefetcher("s3://bucket/t/part-1.parquet", file);
    Metrics metrics = new Metrics();
    open(beside, ParquetSettings.DEFAULT, new ColumnHistory(10), tails, metrics);
    long guess = needed + needed / 4;
    assertEquals(List.of(ByteRange.ofLength(file.length - guess, guess)), beside.fetched);
    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_PARSED));

    // A file under another prefix: nothing learned there yet.
    RecordingPrefetcher elsewhere = new RecordingPrefetcher("s3://bucket/u/part-0.parquet", file);
    open(elsewhere, ParquetSettings.DEFAULT, new ColumnHistory(10), tails, new Metrics());
    assertEquals(
        List.of(ByteRange.ofLength(file.length - configured, configured)), elsewhere.fetched);
  }

  @Test
  void aStreamThatReadsOnlyTheFooterPrefetchesNoColumn() throws Exception {
    ColumnHistory history = historyOfOneProjectedReader();

    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy footerOnly = open(prefetcher, history);
    footerOnly.beforePositionalRead(file.length - 8, 8);
    footerOnly.beforePositionalRead(file.length - 8 - 4096, 4096);
    footerOnly.close();

    assertEquals(List.of(), prefetcher.prefetched);
  }

  @Test
  void learnedColumnsWhoseChunksTheFirstReadPassedOverAreNotPredicted() throws Exception {
    ColumnHistory history = historyOfOneProjectedReader();

    // The first read is of c7: the reader passed over c2, which lies before it, so only c7 and c15
    // (which may still come) are predicted.
    List<String> kept = List.of("c7", "c15");
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    open(prefetcher, history).beforePositionalRead(chunks(footer, 0, kept).get(0).start(), 1);

    assertEquals(runsOfFirstTwoRowGroups(kept), prefetcher.prefetched);
  }

  @Test
  void aColdRunThatFindsNoMemoryStopsReadingAhead() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy strategy = open(prefetcher);
    ByteRange rowGroup = rowGroupRange(footer, 0);
    int buffer = 64 * 1024;

    prefetcher.refusing = true;
    readInBuffers(strategy, ByteRange.ofLength(rowGroup.start(), 2 * buffer), buffer);
    prefetcher.refusing = false;
    readInBuffers(strategy, ByteRange.of(rowGroup.start() + 2 * buffer, rowGroup.end()), buffer);

    // The run asked once, found no memory, and asked no more; row group 1 is still learned.
    assertPrefetchedOnlyAfter(prefetcher, 0, rowGroup.end());
  }

  @Test
  void aChunkIsPrefetchedOnlyOnce() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ParquetReadStrategy strategy = open(prefetcher);

    strategy.beforeVectoredRead(projectedChunks(footer, 0));
    strategy.beforeVectoredRead(projectedChunks(footer, 0));
    strategy.beforeVectoredRead(projectedChunks(footer, 1).subList(0, 1));

    // Reading row group 1's first chunk prefetches row group 2's, nothing of row group 1 again.
    assertEquals(List.of(projectedRun(footer, 1), projectedRun(footer, 2)), prefetcher.prefetched);
  }

  @Test
  void aLargeFilesFooterIsFetchedWithItsOwnGetAndTheBytesBeforeItInParallel() throws Exception {
    // Every file counts as large here: the last 64 KiB first, the 960 KiB before them alongside.
    ParquetSettings settings =
        new ParquetSettings(
            64 * 1024, 1024 * 1024, 0, PrefetchMode.ROW_GROUP, 10, 1024 * 1024, true);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    Metrics metrics = new Metrics();

    open(prefetcher, settings, new ColumnHistory(10), metrics);

    long length = file.length;
    assertEquals(List.of(ByteRange.of(length - 64 * 1024, length - 1)), prefetcher.fetched);
    assertEquals(
        List.of(ByteRange.of(length - 1024 * 1024, length - 64 * 1024 - 1)), prefetcher.prefetched);
    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_PARSED));
  }

  @Test
  void theBytesBeforeALargeFilesFooterAreAtMostOneReadAheadRequest() throws Exception {
    // A small memory limit makes read-ahead requests of 256 KiB: no more is fetched before the
    // footer, where the settings would take 960 KiB.
    ParquetSettings settings =
        new ParquetSettings(
            64 * 1024, 1024 * 1024, 0, PrefetchMode.ROW_GROUP, 10, 1024 * 1024, true);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    prefetcher.requestSize = 256 * 1024;

    open(prefetcher, settings, new ColumnHistory(10), new Metrics());

    long footerStart = file.length - 64 * 1024;
    assertEquals(
        List.of(ByteRange.of(footerStart - 256 * 1024, footerStart - 1)), prefetcher.prefetched);
  }

  @Test
  void aFooterLongerThanTheTailIsCompletedWithOneMoreFetch() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    ByteRange tail = ByteRange.ofLength(file.length - 512, 512);

    ParquetLayout layout =
        new ParquetFooterFetch(prefetcher, Runnable::run)
            .layout(tail, prefetcher.fetch(tail))
            .get();

    assertEquals(2, prefetcher.fetched.size());
    assertEquals(footer, layout.footer());
    assertEquals(rowGroups(footer) * 20, layout.chunks().length);
  }

  @Test
  void aStreamWhoseTailHoldsPartOfTheFooterParsesItWithOneMoreFetch() throws Exception {
    ParquetSettings settings =
        new ParquetSettings(
            512, 512, Long.MAX_VALUE, PrefetchMode.ROW_GROUP, 10, 1024 * 1024, true);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher("s3://bucket/table.parquet", file);
    Metrics metrics = new Metrics();

    open(prefetcher, settings, new ColumnHistory(10), metrics);

    assertEquals(2, prefetcher.fetched.size());
    assertEquals(1, metrics.get(Metric.FORMAT_FOOTERS_PARSED));
  }

  private static ParquetReadStrategy open(Prefetcher prefetcher) {
    return open(prefetcher, ParquetSettings.DEFAULT);
  }

  private static ParquetReadStrategy open(Prefetcher prefetcher, ColumnHistory history) {
    return open(prefetcher, ParquetSettings.DEFAULT, history);
  }

  private static ParquetReadStrategy open(Prefetcher prefetcher, ParquetSettings settings) {
    return open(prefetcher, settings, new ColumnHistory(10));
  }

  /** A history in which one reader, now closed, read the projected columns of row group 0. */
  private static ColumnHistory historyOfOneProjectedReader() throws IOException {
    ColumnHistory history = new ColumnHistory(10);
    ParquetReadStrategy first =
        open(new RecordingPrefetcher("s3://bucket/table.parquet", file), history);
    first.beforeVectoredRead(projectedChunks(footer, 0));
    first.close();
    return history;
  }

  /** The runs the chunks of {@code columns} in row groups 0 and 1 are prefetched as. */
  private static List<ByteRange> runsOfFirstTwoRowGroups(List<String> columns) {
    List<ByteRange> wanted = new ArrayList<>(chunks(footer, 0, columns));
    wanted.addAll(chunks(footer, 1, columns));
    return ByteRanges.coalesce(wanted, ParquetSettings.DEFAULT.mergeGap());
  }

  /** Every range prefetched after the first {@code skipped} starts past byte {@code last}. */
  private static void assertPrefetchedOnlyAfter(
      RecordingPrefetcher prefetcher, int skipped, long last) {
    List<ByteRange> later = prefetcher.prefetched.stream().skip(skipped).toList();
    assertTrue(later.stream().allMatch(range -> range.start() > last), later + " after " + last);
  }

  /** Reads {@code range} as one buffer of {@code buffer} bytes after another. */
  private static void readInBuffers(ParquetReadStrategy strategy, ByteRange range, int buffer)
      throws IOException {
    for (long at = range.start(); at <= range.end(); at += buffer) {
      strategy.beforePositionalRead(at, Math.min(buffer, range.end() - at + 1));
    }
  }

  private static ParquetReadStrategy open(
      Prefetcher prefetcher, ParquetSettings settings, ColumnHistory history) {
    return open(prefetcher, settings, history, new Metrics());
  }

  private static ParquetReadStrategy open(
      Prefetcher prefetcher, ParquetSettings settings, ColumnHistory history, Metrics metrics) {
    return open(prefetcher, settings, history, new TailHistory(10), metrics);
  }

  /** A strategy parsing on the calling thread: once opened, its footer is parsed. */
  private static ParquetReadStrategy open(
      Prefetcher prefetcher,
      ParquetSettings settings,
      ColumnHistory history,
      TailHistory tails,
      Metrics metrics) {
    ParquetReadStrategy strategy =
        new ParquetReadStrategy(
            prefetcher,
            settings,
            Runnable::run,
            history,
            new FooterOnlyHistory(10),
            tails,
            new FooterMetrics(metrics));
    strategy.onOpen();
    return strategy;
  }

  private static int rowGroups(ParquetFooter footer) {
    return footer.metadata().getRow_groups().size();
  }

  /** From the first byte of {@code rowGroup}'s first chunk to the last of its last. */
  private static ByteRange rowGroupRange(ParquetFooter footer, int rowGroup) {
    List<ByteRange> chunks =
        footer.columnChunks().stream()
            .filter(chunk -> chunk.rowGroup() == rowGroup)
            .map(ColumnChunk::range)
            .sorted()
            .toList();
    return ByteRange.of(chunks.get(0).start(), chunks.get(chunks.size() - 1).end());
  }

  /** From the first projected chunk of {@code rowGroup} to the end of its last. */
  private static ByteRange projectedRun(ParquetFooter footer, int rowGroup) {
    List<ByteRange> chunks = projectedChunks(footer, rowGroup);
    return ByteRange.of(chunks.get(0).start(), chunks.get(chunks.size() - 1).end());
  }

  private static List<ByteRange> projectedChunks(ParquetFooter footer, int rowGroup) {
    return chunks(footer, rowGroup, PROJECTED);
  }

  private static List<ByteRange> chunks(ParquetFooter footer, int rowGroup, List<String> columns) {
    return footer.columnChunks().stream()
        .filter(chunk -> chunk.rowGroup() == rowGroup && columns.contains(chunk.dottedPath()))
        .map(ColumnChunk::range)
        .sorted()
        .toList();
  }
}
