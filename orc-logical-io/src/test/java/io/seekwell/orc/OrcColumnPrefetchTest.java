package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.object.GetRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache ORC's own reader, reading through Seekwell streams with the ORC plug-in: every value
 * equals a read of the same bytes in memory, and the GETs, demand GETs and bytes are counted
 * against what the reader needed. The files alternate wide and narrow columns, in 8 stripes.
 */
class OrcColumnPrefetchTest {

  private static final int COLUMNS = 16;
  private static final int FILES = 3;

  /** Bridges a narrow column's streams (about 2 KB a stripe), not a wide one's (about 76 KB). */
  private static final String MERGE_GAP = "16KB";

  @TempDir static Path dir;
  private static final List<byte[]> files = new ArrayList<>();
  private static List<Stripe> stripes;

  @BeforeAll
  static void writeFiles() throws IOException {
    for (int i = 0; i < FILES; i++) {
      Path file = dir.resolve("part-" + i + ".orc");
      files.add(OrcFiles.writeMixed(file, COLUMNS, 40_000, 512 * 1024, i));
      if (i == 0) {
        stripes = OrcFiles.stripes(file);
      }
    }
    assertEquals(8, stripes.size(), "stripes");
  }

  /** ORC's include flags: the root and the given columns. */
  private static boolean[] include(int... columns) {
    boolean[] include = new boolean[COLUMNS + 1];
    include[0] = true;
    for (int column : columns) {
      include[column + 1] = true;
    }
    return include;
  }

  private static boolean[] alternate() {
    boolean[] include = new boolean[COLUMNS + 1];
    include[0] = true;
    for (int column = 0; column < COLUMNS; column += 2) {
      include[column + 1] = true;
    }
    return include;
  }

  /** GETs of the tail: one from the end, of {@code logicalio.orc.tail.prefetch.size}. */
  private static long tailGets(CountedOrcReads.Cost cost, int file) {
    long length = files.get(file).length;
    return cost.gets().stream()
        .filter(get -> get.range().end() == length - 1)
        .peek(get -> assertEquals(OrcSettings.DEFAULT.tailPrefetchSize(), get.range().length()))
        .count();
  }

  /**
   * Nothing was known of the schema when the first file was opened: some of the first reads of its
   * first stripe went out on demand (how many depends on how soon the read-ahead and the stripe's
   * footer overtook the reader), and its columns were then prefetched for every stripe after it.
   */
  private static void assertOnlyTheFirstStripeWasReadOnDemand(CountedOrcReads.Cost first) {
    List<ByteRange> onDemand =
        first.gets().stream()
            .filter(get -> !get.options().prefetch())
            .map(GetRequest::range)
            .toList();
    assertEquals(first.demandGets(), onDemand.size(), first::toString);
    ByteRange firstStripe = ByteRange.of(stripes.get(0).offset(), stripes.get(0).footer().end());
    for (ByteRange range : onDemand) {
      assertTrue(firstStripe.contains(range.start()), range + " on demand: " + first);
    }
  }

  @Test
  void alternateColumnsOfASecondFileWithTheSameSchemaCostOneGetPerStripe() throws Exception {
    try (CountedOrcReads reads = new CountedOrcReads(files, MERGE_GAP)) {
      CountedOrcReads.Cost first = reads.read(0, alternate());
      assertEquals(1, tailGets(first, 0), first::toString);
      assertOnlyTheFirstStripeWasReadOnDemand(first);

      CountedOrcReads.Cost second = reads.read(1, alternate());
      assertEquals(1, tailGets(second, 1), second::toString);
      assertEquals(0, second.demandGets(), second::toString);
      // The learned columns of a stripe, merged across the narrow columns between them, are its
      // data whole: each stripe is one GET with its footer.
      assertTrue(second.gets().size() <= stripes.size() + 1, second::toString);
      assertTrue(second.bytes() <= 1.5 * second.bytesNeeded(), second::toString);
    }
  }

  @Test
  void aFullReadCostsNoMoreGetsThanItsStripesSplitIntoRequests() throws Exception {
    try (CountedOrcReads reads = new CountedOrcReads(files, MERGE_GAP)) {
      assertOnlyTheFirstStripeWasReadOnDemand(reads.read(0, null));

      CountedOrcReads.Cost second = reads.read(1, null);
      long split = 1; // the tail
      for (Stripe stripe : stripes) {
        split +=
            (stripe.dataLength() + stripe.footerLength() + CountedOrcReads.REQUEST_SIZE - 1)
                / CountedOrcReads.REQUEST_SIZE;
      }
      assertEquals(0, second.demandGets(), second::toString);
      assertTrue(second.gets().size() <= split, split + " expected at most: " + second);
      assertTrue(second.bytes() <= 1.05 * second.bytesNeeded(), second::toString);
    }
  }

  @Test
  void threeColumnsOfASecondFileAreAllPrefetched() throws Exception {
    try (CountedOrcReads reads = new CountedOrcReads(files, MERGE_GAP)) {
      boolean[] three = include(3, 8, 13);
      reads.read(0, three);

      CountedOrcReads.Cost second = reads.read(1, three);
      assertEquals(0, second.demandGets(), second::toString);
      // Far apart, the three columns are three GETs per stripe, after its footer's.
      assertTrue(second.gets().size() <= 1 + 4 * stripes.size(), second::toString);
    }
  }
}
