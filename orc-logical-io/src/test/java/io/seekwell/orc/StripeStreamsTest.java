package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.ByteRange;
import io.seekwell.common.ByteRanges;
import io.seekwell.testing.hadoop.SourceFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data streams a stripe's footer lists, laid out as the plug-in lays them out, are exactly the
 * bytes Apache ORC's reader reads for each column.
 */
class StripeStreamsTest {

  private static final int COLUMNS = 6;

  @TempDir Path dir;

  @Test
  void eachColumnsStreamsAreTheBytesOrcReadsForIt() throws Exception {
    Path file = dir.resolve("t.orc");
    byte[] bytes = OrcFiles.writeMixed(file, COLUMNS, 12_000, 128 * 1024, 3);
    List<Stripe> stripes = OrcFiles.stripes(file);
    assertTrue(stripes.size() >= 3, stripes.size() + " stripes");
    List<StripeStreams> streams = OrcFiles.streams(file, COLUMNS + 1);

    for (int column = 0; column < COLUMNS; column++) {
      int id = column + 1;
      List<ByteRange> listed = new ArrayList<>();
      streams.forEach(stripe -> listed.addAll(stripe.streamsOf(c -> c == id)));

      RecordingSource source = new RecordingSource(bytes);
      boolean[] include = new boolean[COLUMNS + 1];
      include[0] = true;
      include[id] = true;
      OrcFiles.values(
          new SourceFileSystem(Map.of("t.orc", source)), SourceFileSystem.path("t.orc"), include);
      List<ByteRange> read = new ArrayList<>();
      for (ByteRange range : source.reads()) {
        if (stripes.stream()
            .anyMatch(stripe -> stripe.dataLength() > 0 && stripe.data().contains(range))) {
          read.add(range);
        }
      }
      read.sort(Comparator.comparingLong(ByteRange::start));
      assertEquals(ByteRanges.coalesce(listed, 0), ByteRanges.coalesce(read, 0), "column " + id);
    }
  }
}
