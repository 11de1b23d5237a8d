package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the strategy prefetches after the reads it observes, on a local Parquet file. */
class ParquetReadStrategyTest {

  private static final List<String> PROJECTED = List.of("c2", "c7", "c15");

  @TempDir static Path dir;
  private static byte[] file;

  @BeforeAll
  static void writeFile() throws IOException {
    Path written =
        ParquetFiles.write(
            dir.resolve("table.parquet"), ParquetFiles.doubles(20), 100_000, 2_000_000, 11);
    file = Files.readAllBytes(written);
  }

  @Test
  void aVectoredReadIsLearnedAsOneBatchAndItsNextRowGroupFetchedAsOneRun() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    ParquetReadStrategy strategy = open(prefetcher);
    ParquetFooter footer = strategy.footer().get();
    assertTrue(rowGroups(footer) >= 3, "the file needs at least three row groups");
    assertEquals(List.of(), prefetcher.prefetched, "nothing is learned before the first read");

    strategy.beforeVectoredRead(projectedChunks(footer, 0));

    // The three chunks of row group 1 lie within the merge gap of each other: one run.
    assertEquals(List.of(projectedRun(footer, 1)), prefetcher.prefetched);
  }

  @Test
  void thePluginsStrategyLearnsAVectoredReadAsOneBatch() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    try (ParquetFormatPlugin plugin = new ParquetFormatPlugin()) {
      plugin.configure(ConnectorConfiguration.empty());
      ReadStrategy strategy = plugin.newStrategy(prefetcher);
      strategy.onOpen();
      ParquetFooter footer = awaitFooter(plugin, prefetcher.objectName());

      strategy.beforeVectoredRead(projectedChunks(footer, 0));

      assertEquals(List.of(projectedRun(footer, 1)), prefetcher.prefetched);
    }
  }

  @Test
  void readsOneAtATimePrefetchEachColumnWhenItIsLearned() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    ParquetReadStrategy strategy = open(prefetcher);
    ParquetFooter footer = strategy.footer().get();

    for (ByteRange chunk : projectedChunks(footer, 0)) {
      strategy.beforePositionalRead(chunk.start(), chunk.length());
    }

    assertEquals(projectedChunks(footer, 1), prefetcher.prefetched);
  }

  @Test
  void aColdRowGroupReadInBuffersOneAfterAnotherIsReadAheadToItsEndInAGrowingWindow()
      throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    ParquetReadStrategy strategy = open(prefetcher);
    ParquetFooter footer = strategy.footer().get();
    long start = rowGroupRange(footer, 0).start();
    long end = rowGroupRange(footer, 0).end();
    int buffer = 64 * 1024;
    assertTrue(end - start > 16 * buffer, "row group 0 spans " + (end - start) + " bytes");

    // A reader without vectored reads reading all of row group 0, as Parquet's reader does.
    for (long at = start; at <= end; at += buffer) {
      strategy.beforePositionalRead(at, Math.min(buffer, end - at + 1));
    }

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
  void aChunkIsPrefetchedOnlyOnce() throws Exception {
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    ParquetReadStrategy strategy = open(prefetcher);
    ParquetFooter footer = strategy.footer().get();

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
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);
    ParquetReadStrategy strategy = open(prefetcher, settings);

    ParquetFooter footer = strategy.footer().get();

    long length = file.length;
    assertEquals(List.of(ByteRange.of(length - 64 * 1024, length - 1)), prefetcher.fetched);
    assertEquals(
        List.of(ByteRange.of(length - 1024 * 1024, length - 64 * 1024 - 1)), prefetcher.prefetched);
    assertEquals(rowGroups(footer) * 20, footer.columnChunks().size());
  }

  @Test
  void aFooterLongerThanTheTailIsCompletedWithOneMoreFetch() throws Exception {
    ParquetSettings settings =
        new ParquetSettings(
            512, 512, Long.MAX_VALUE, PrefetchMode.ROW_GROUP, 10, 1024 * 1024, true);
    RecordingPrefetcher prefetcher = new RecordingPrefetcher(file);

    ParquetFooter footer = open(prefetcher, settings).footer().get();

    assertEquals(2, prefetcher.fetched.size());
    assertEquals(footer, open(new RecordingPrefetcher(file)).footer().get());
  }

  private static ParquetFooter awaitFooter(ParquetFormatPlugin plugin, String objectName)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      Optional<ParquetFooter> footer = plugin.footer(objectName);
      if (footer.isPresent()) {
        return footer.get();
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no footer parsed for " + objectName + " within 10 s");
  }

  private static ParquetReadStrategy open(Prefetcher prefetcher) {
    return open(prefetcher, ParquetSettings.DEFAULT);
  }

  private static ParquetReadStrategy open(Prefetcher prefetcher, ParquetSettings settings) {
    ParquetReadStrategy strategy =
        new ParquetReadStrategy(
            prefetcher,
            settings,
            Runnable::run,
            new ColumnHistory(10),
            new FooterOnlyHistory(10),
            footer -> {});
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
    return footer.columnChunks().stream()
        .filter(chunk -> chunk.rowGroup() == rowGroup && PROJECTED.contains(chunk.dottedPath()))
        .map(ColumnChunk::range)
        .sorted()
        .toList();
  }
}
