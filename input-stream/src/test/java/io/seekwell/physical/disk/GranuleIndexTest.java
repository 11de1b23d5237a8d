package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a restarted disk tier counts for an index it lists, before reading its records. */
class GranuleIndexTest {

  private static final String IDENTITY = "s3://bucket/warehouse/db/table/metadata/snap-1.avro\n1\n";

  @TempDir Path directory;

  private Path indexWith(long length, int records) throws IOException {
    byte[] header = GranuleIndex.header(IDENTITY, length);
    ByteBuffer file = ByteBuffer.allocate(header.length + records * GranuleIndex.RECORD);
    file.put(header);
    for (int granule = 0; granule < records; granule++) {
      GranuleIndex.putRecord(file, granule, granule * 31);
    }
    Path index = directory.resolve("object.index");
    Files.write(index, file.array());
    return index;
  }

  private static long estimate(Path index) throws IOException {
    return GranuleIndex.estimatedBytes(index, Files.size(index));
  }

  @Test
  void aListedIndexCountsAGranuleForEachRecordNotForItsHeader() throws IOException {
    assertEquals(3L * GranuleIndex.GRANULE, estimate(indexWith(10L << 20, 3)));
    assertEquals(0, estimate(indexWith(10L << 20, 0)), "a header and no record lists nothing");
  }

  @Test
  void aListedIndexCountsAtMostItsObjectsLength() throws IOException {
    assertEquals(1000, estimate(indexWith(1000, 1)));
    assertEquals(100_000, estimate(indexWith(100_000, 5)), "records written twice");
  }

  @Test
  void anIndexWithoutAHeaderIsCountedByItsSize() throws IOException {
    Path index = directory.resolve("foreign.index");
    Files.write(index, new byte[5 * GranuleIndex.RECORD]);
    assertEquals(5L * GranuleIndex.GRANULE, estimate(index));
  }
}
