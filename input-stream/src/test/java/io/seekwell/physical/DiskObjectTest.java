package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One object's files, written the way the tier does where the file system refuses direct I/O. */
class DiskObjectTest {

  private static final int LENGTH = 20 * GranuleIndex.GRANULE + 1234;
  private static final int ALIGNMENT = 4096;

  @TempDir Path directory;

  private final byte[] content = TestData.randomBytes(11, LENGTH);

  @Test
  void granulesWrittenThroughThePageCacheReadBackAfterARestart() throws IOException {
    DiskObject written = loaded(false);
    Map<Integer, List<ByteBuffer>> granules = new LinkedHashMap<>();
    for (int granule = 0; GranuleIndex.startOf(granule) < LENGTH; granule++) {
      int start = (int) GranuleIndex.startOf(granule);
      // Each granule given in two parts, as it is when two blocks hold it.
      int half = written.index().lengthOf(granule) / 2;
      granules.put(
          granule,
          List.of(
              ByteBuffer.wrap(content, start, half),
              ByteBuffer.wrap(content, start + half, written.index().lengthOf(granule) - half)));
    }
    ByteBuffer staging =
        ByteBuffer.allocateDirect(DiskObject.MAX_RUN + 2 * ALIGNMENT).alignedSlice(ALIGNMENT);
    long bytes = written.write(granules, new DataFileWriter.Staging(staging, ALIGNMENT, false));
    assertEquals(LENGTH, bytes);
    assertArrayEquals(content, readAll(written));
    written.unmap();

    DiskObject reloaded = loaded(true);
    assertArrayEquals(content, readAll(reloaded));
    reloaded.remove();
  }

  private DiskObject loaded(boolean listed) throws IOException {
    DiskObject object =
        new DiskObject(
            directory.resolve("object.data"),
            directory.resolve("object.index"),
            listed,
            0,
            delta -> {});
    assertTrue(object.load("the object", LENGTH, () -> fail("not foreign")));
    return object;
  }

  private byte[] readAll(DiskObject object) throws IOException {
    byte[] bytes = new byte[LENGTH];
    int done = 0;
    while (done < LENGTH) {
      int n =
          object.read(
              GranuleIndex.granuleOf(done),
              bytes,
              done,
              LENGTH - done,
              () -> fail("a bad granule"));
      assertTrue(n > 0, "stored from " + done);
      done += n;
    }
    return bytes;
  }
}
