package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.orc.CompressionKind;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tail of real ORC files (written by Apache ORC) is fetched at open with one GET, or two when
 * it is longer than the first guess; ORC's own reads of it then send none.
 */
class OrcTailTest {

  private static final String KEY = "warehouse/t/data/part-0.orc";
  private static final S3URI URI = S3URI.of("bucket", KEY);

  @TempDir static Path dir;
  private static byte[] content;
  private String etag;

  @BeforeAll
  static void writeFile() throws IOException {
    // 64 columns of random longs in several stripes: about 4 MB, with a tail of some kilobytes.
    content =
        OrcFiles.write(dir.resolve("part-0.orc"), 64, 8_000, 1 << 20, CompressionKind.ZLIB, 5);
  }

  private static S3SeekableInputStreamFactory factory(InMemoryObjectClient store, String tail) {
    Map<String, String> settings = new HashMap<>();
    settings.put("logicalio.small.object.size.threshold", "0"); // the file is not fetched whole
    if (tail != null) {
      settings.put("logicalio.orc.tail.prefetch.size", tail);
    }
    return new S3SeekableInputStreamFactory(
        store,
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(settings, "")));
  }

  private InMemoryObjectClient store() {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    etag = store.put(ObjectLocation.of("bucket", KEY), content);
    return store;
  }

  /** The tail's length, as ORC's postscript gives it. */
  private static long tailLength() throws IOException {
    return OrcTail.parse(KEY, content.length, content).length();
  }

  /** Reads as ORC's reader does: its 16 KiB guess at the end, then the whole tail. */
  private void readTailAsOrcDoes(S3SeekableInputStreamFactory factory) throws IOException {
    long tail = tailLength();
    OpenStreamInformation open =
        OpenStreamInformation.builder()
            .objectMetadata(ObjectMetadata.of(content.length, etag))
            .build();
    try (S3SeekableInputStream stream = factory.createStream(URI, open)) {
      int guess = Math.min(16 * 1024, content.length);
      byte[] end = new byte[guess];
      stream.readFully(content.length - guess, end, 0, guess);
      assertArrayEquals(Arrays.copyOfRange(content, content.length - guess, content.length), end);
      byte[] whole = new byte[(int) tail];
      stream.readFully(content.length - tail, whole, 0, whole.length);
      assertArrayEquals(
          Arrays.copyOfRange(content, (int) (content.length - tail), content.length), whole);
    }
  }

  /**
   * The GETs for bytes of the tail; the first stripe's footer, fetched once the tail is parsed, may
   * or may not have been sent before the factory closed.
   */
  private List<GetRequest> tailGets(InMemoryObjectClient store) throws IOException {
    long tailStart = content.length - tailLength();
    return store.gets().stream().filter(get -> get.range().end() >= tailStart).toList();
  }

  @Test
  void theTailOfATypicalFileCostsOneGet() throws IOException {
    assertTrue(tailLength() < OrcSettings.DEFAULT.tailPrefetchSize());
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory = factory(store, null)) {
      readTailAsOrcDoes(factory);
    }
    List<GetRequest> gets = tailGets(store);
    assertEquals(1, gets.size(), gets.toString());
    assertEquals(
        content.length - OrcSettings.DEFAULT.tailPrefetchSize(), gets.get(0).range().start());
  }

  @Test
  void aTailLongerThanTheGuessCostsOneGetMore() throws IOException {
    InMemoryObjectClient store = store();
    assertTrue(tailLength() > 1024, tailLength() + " bytes of tail");
    try (S3SeekableInputStreamFactory factory = factory(store, "1KiB")) {
      readTailAsOrcDoes(factory);
    }
    List<GetRequest> gets = tailGets(store);
    assertEquals(2, gets.size(), gets.toString());
    // The rest of the tail, up to the first GET (the store may round the request down).
    assertTrue(gets.get(1).range().start() <= content.length - tailLength(), gets.toString());
    assertEquals(gets.get(0).range().start() - 1, gets.get(1).range().end());
  }

  @Test
  void aFileThatIsNotOrcIsReportedAsSuch() {
    byte[] parquet = TestData.randomBytes(3, 1000);
    parquet[999] = 10;
    IOException error =
        assertThrows(IOException.class, () -> OrcTail.parse("s3://b/x.orc", 1000, parquet));
    assertTrue(error.getMessage().contains("s3://b/x.orc"), error.getMessage());
  }
}
