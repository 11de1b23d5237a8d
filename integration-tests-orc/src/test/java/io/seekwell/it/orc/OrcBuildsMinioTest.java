package io.seekwell.it.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.FaultProxy;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import io.seekwell.testing.hadoop.PositionalInputStream;
import io.seekwell.testing.hadoop.SeekwellS3a;
import io.seekwell.testing.hadoop.SourceFileSystem;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The ORC build on this module's class path (see {@code -Dorc.build} in its POM), with Seekwell's
 * thin connectors and the ORC plug-in they bring: ORC's own reader reads every column of a
 * multi-stripe file, and projections of it, over S3A and over the Iceberg FileIO, with the same
 * values as from the local file; the plug-in is in effect (each file's tail comes in one GET of its
 * prefetch size), and the application's ORC classes are its build's own.
 */
@WithS3Server
class OrcBuildsMinioTest {

  /** {@code logicalio.orc.tail.prefetch.size}'s default. */
  private static final long TAIL_PREFETCH = 256 * 1024;

  /** Files of a few MB would be fetched whole as small objects: their tails are the point here. */
  private static final String SMALL_OBJECTS = "1MB";

  private static final List<boolean[]> PROJECTIONS =
      Arrays.asList(null, OrcTable.only(0, 2, 11, 17), OrcTable.only(1));

  private static final Map<CompressionKind, Path> LOCAL = new EnumMap<>(CompressionKind.class);
  private static final Map<CompressionKind, Long> SIZES = new EnumMap<>(CompressionKind.class);

  private static S3TestBucket bucket;
  private static FaultProxy proxy;

  @BeforeAll
  static void writeAndUpload(S3TestBucket testBucket, @TempDir java.nio.file.Path dir)
      throws IOException {
    bucket = testBucket;
    for (CompressionKind kind : List.of(CompressionKind.ZLIB, CompressionKind.SNAPPY)) {
      java.nio.file.Path file = dir.resolve(kind + ".orc");
      OrcTable.write(new Path(file.toUri()), new Configuration(), kind);
      byte[] bytes = Files.readAllBytes(file);
      for (String path : List.of("s3a", "iceberg")) {
        bucket.put(key(path, kind), bytes);
      }
      LOCAL.put(kind, new Path(file.toUri()));
      SIZES.put(kind, (long) bytes.length);
    }
    // Forwards everything, and records each request for the GETs asserted below.
    proxy = FaultProxy.start(bucket.endpoint().uri());
  }

  @AfterAll
  static void stopProxy() throws IOException {
    if (proxy != null) {
      proxy.close();
    }
  }

  private static String key(String path, CompressionKind kind) {
    return "orc/" + path + "/" + kind.name().toLowerCase(Locale.ROOT) + ".orc";
  }

  @Test
  void theApplicationsOrcClassesAreItsBuildsOwnAndNoOtherCopy() throws IOException {
    for (String name : List.of("org/apache/orc/OrcProto.class", "org/apache/orc/OrcFile.class")) {
      List<URL> copies = Collections.list(getClass().getClassLoader().getResources(name));
      assertEquals(1, copies.size(), () -> name + " on the class path: " + copies);
      assertTrue(copies.get(0).toString().contains("/org/apache/orc/"), copies::toString);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = CompressionKind.class,
      names = {"ZLIB", "SNAPPY"})
  void s3aReadsTheSameValuesAsTheLocalFile(CompressionKind kind) throws IOException {
    Configuration conf =
        SeekwellS3a.configure(
            new Configuration(), bucket.endpoint().via(proxy.uri()), bucket.name());
    conf.set("fs.s3a.seekwell.logicalio.small.object.size.threshold", SMALL_OBJECTS);
    String key = key("s3a", kind);
    Path remote = new Path("s3a://" + bucket.name() + "/" + key);
    try (FileSystem fs = FileSystem.newInstance(remote.toUri(), conf)) {
      try (FSDataInputStream in = fs.open(remote)) {
        assertEquals(
            "io.seekwell.hadoop.SeekwellS3aInputStream",
            in.getWrappedStream().getClass().getName());
      }
      assertSameValuesAsLocal(kind, fs, remote);
    }
    assertTailFetchedWithOneGet(key, SIZES.get(kind));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = CompressionKind.class,
      names = {"ZLIB", "SNAPPY"})
  void icebergFileIoReadsTheSameValuesAsTheLocalFile(CompressionKind kind) throws IOException {
    Map<String, String> properties = IcebergS3Properties.of(bucket.endpoint(), proxy.uri());
    properties.put("seekwell.logicalio.small.object.size.threshold", SMALL_OBJECTS);
    String key = key("iceberg", kind);
    long size = SIZES.get(kind);
    try (SeekwellS3FileIO io = new SeekwellS3FileIO()) {
      io.initialize(properties);
      String location = "s3://" + bucket.name() + "/" + key;
      try (SourceFileSystem fs =
          new SourceFileSystem(Map.of("t.orc", new FileIoSource(io, location, size)))) {
        assertSameValuesAsLocal(kind, fs, SourceFileSystem.path("t.orc"));
      }
    }
    assertTailFetchedWithOneGet(key, size);
  }

  /** An object as the FileIO's streams read it: ORC's reads, each a read at a position. */
  private record FileIoSource(SeekwellS3FileIO io, String location, long length)
      implements SourceFileSystem.Source {

    @Override
    public FSInputStream open() {
      SeekableInputStream stream = io.newInputFile(location, length).newStream();
      return new PositionalInputStream(length) {
        @Override
        protected void readAt(long position, byte[] buffer, int offset, int count)
            throws IOException {
          ((RangeReadable) stream).readFully(position, buffer, offset, count);
        }

        @Override
        public void close() throws IOException {
          stream.close();
        }
      };
    }
  }

  private static void assertSameValuesAsLocal(CompressionKind kind, FileSystem fs, Path remote)
      throws IOException {
    Configuration local = new Configuration();
    for (boolean[] include : PROJECTIONS) {
      List<String> expected;
      try (Reader reader = OrcFile.createReader(LOCAL.get(kind), OrcFile.readerOptions(local))) {
        assertTrue(reader.getStripes().size() > 1, reader.getStripes().size() + " stripes");
        assertEquals(kind, reader.getCompressionKind());
        expected = OrcTable.read(reader, include);
      }
      assertTrue(expected.size() > 1, expected.size() + " batches");
      // Each batch's text carries its values.
      assertTrue(expected.get(0).contains(include == null ? "name-" : "["), expected.get(0));
      List<String> actual;
      try (Reader reader =
          OrcFile.createReader(remote, OrcFile.readerOptions(fs.getConf()).filesystem(fs))) {
        actual = OrcTable.read(reader, include);
      }
      assertEquals(expected.size(), actual.size(), "batches read");
      for (int batch = 0; batch < expected.size(); batch++) {
        if (!expected.get(batch).equals(actual.get(batch))) {
          throw new AssertionError(
              "Batch "
                  + batch
                  + " of "
                  + remote
                  + " differs from the local file's, columns "
                  + (include == null ? "all" : Arrays.toString(include)));
        }
      }
    }
  }

  /**
   * The ORC plug-in fetched the file's tail in one GET of its prefetch size; without it, ORC's
   * first read (its last 16 KiB) would start the file's reads.
   */
  private static void assertTailFetchedWithOneGet(String key, long size) {
    String tail = "bytes=" + (size - TAIL_PREFETCH) + "-" + (size - 1);
    List<String> ranges = getRanges(key);
    assertEquals(
        1, ranges.stream().filter(tail::equals).count(), () -> tail + " among GETs " + ranges);
  }

  /** The ranges of the GETs of {@code key} the proxy forwarded, in order. */
  private static List<String> getRanges(String key) {
    List<String> ranges = new ArrayList<>();
    for (String head : proxy.requestHeads()) {
      String[] lines = head.split("\r\n");
      if (!lines[0].startsWith("GET /" + bucket.name() + "/" + key + " ")
          && !lines[0].startsWith("GET /" + bucket.name() + "/" + key + "?")) {
        continue;
      }
      String range = "whole";
      for (String line : lines) {
        if (line.toLowerCase(Locale.ROOT).startsWith("range:")) {
          range = line.substring("range:".length()).trim();
        }
      }
      ranges.add(range);
    }
    return ranges;
  }
}
