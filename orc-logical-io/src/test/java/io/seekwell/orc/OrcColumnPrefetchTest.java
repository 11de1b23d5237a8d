package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.config.ConnectorConfiguration;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache ORC's own reader, reading through Seekwell streams with the ORC plug-in (positional reads,
 * as Iceberg's ORC reader issues them): every value equals a read of the same bytes in memory, and
 * the GETs, demand GETs and bytes are counted against what the reader needed.
 */
class OrcColumnPrefetchTest {

  private static final int COLUMNS = 16;
  private static final int FILES = 3;
  private static final String BUCKET = "bucket";
  private static final long REQUEST_SIZE = 8 << 20;

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
  }

  private static String key(int file) {
    return "t/data/part-" + file + ".orc";
  }

  private static InMemoryObjectClient store() {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    for (int i = 0; i < FILES; i++) {
      store.put(ObjectLocation.of(BUCKET, key(i)), files.get(i));
    }
    return store;
  }

  /**
   * A factory whose GETs are countable: files of 5 MB are not fetched whole; GETs split by a fixed
   * size (the in-memory store answers with no latency, which would make measured splits small); a
   * merge gap that bridges a narrow column's streams (about 2 KB a stripe) and not a wide one's
   * (about 76 KB).
   */
  private static S3SeekableInputStreamFactory factory(InMemoryObjectClient store) {
    return new S3SeekableInputStreamFactory(
        store,
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(
                Map.of(
                    "seekwell.logicalio.small.object.size.threshold",
                    "64KB",
                    "seekwell.physicalio.target.request.size",
                    String.valueOf(REQUEST_SIZE),
                    "seekwell.physicalio.max.request.size",
                    String.valueOf(REQUEST_SIZE),
                    "seekwell.physicalio.request.coalesce.tolerance",
                    "16KB"),
                "seekwell.")));
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

  /** What one read of one file cost. */
  record Cost(List<GetRequest> gets, long demandGets, long bytesNeeded) {
    long bytes() {
      return gets.stream().mapToLong(get -> get.range().length()).sum();
    }

    @Override
    public String toString() {
      return gets.size()
          + " GETs ("
          + demandGets
          + " on demand) of "
          + bytes()
          + " bytes for "
          + bytesNeeded
          + " needed: "
          + gets.stream().map(get -> get.range().toString()).toList();
    }
  }

  /**
   * Reads {@code file}'s {@code include}d columns through {@code factory}, checks every value
   * against a read of its bytes in memory, and returns what it cost.
   */
  private static Cost read(
      S3SeekableInputStreamFactory factory, InMemoryObjectClient store, int file, boolean[] include)
      throws IOException {
    String name = "part-" + file + ".orc";
    RecordingSource local = new RecordingSource(files.get(file));
    List<String> expected =
        OrcFiles.values(
            new SourceFileSystem(Map.of(name, local)), SourceFileSystem.path(name), include);
    int getsBefore = store.gets().size();
    MetricsSnapshot before = factory.getMetrics();
    SeekwellSource remote =
        new SeekwellSource(factory, S3URI.of(BUCKET, key(file)), files.get(file).length);
    assertEquals(
        expected,
        OrcFiles.values(
            new SourceFileSystem(Map.of(name, remote)), SourceFileSystem.path(name), include));
    List<GetRequest> gets = store.gets();
    return new Cost(
        gets.subList(getsBefore, gets.size()),
        factory.getMetrics().minus(before).get(Metric.DEMAND_GET_REQUESTS),
        local.bytesRead());
  }

  /** GETs of the tail: one from the end, of {@code logicalio.orc.tail.prefetch.size}. */
  private static long tailGets(Cost cost, int file) {
    long length = files.get(file).length;
    return cost.gets().stream()
        .filter(get -> get.range().end() == length - 1)
        .peek(get -> assertEquals(OrcSettings.DEFAULT.tailPrefetchSize(), get.range().length()))
        .count();
  }

  @Test
  void alternateColumnsOfASecondFileWithTheSameSchemaCostOneGetPerStripe() throws Exception {
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory = factory(store)) {
      Cost first = read(factory, store, 0, alternate());
      assertEquals(1, tailGets(first, 0), first::toString);
      // Nothing was known of the schema: the first reads of the first stripe went out on demand
      // (a column's data, its length stream, the next column's data) until the reader's short
      // steps were read ahead of; its columns were then prefetched for every stripe after it.
      assertTrue(first.demandGets() <= 3, first::toString);

      Cost second = read(factory, store, 1, alternate());
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
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory = factory(store)) {
      Cost first = read(factory, store, 0, null);
      assertTrue(first.demandGets() <= 4, first::toString);

      Cost second = read(factory, store, 1, null);
      long split = 1; // the tail
      for (Stripe stripe : stripes) {
        split += (stripe.dataLength() + stripe.footerLength() + REQUEST_SIZE - 1) / REQUEST_SIZE;
      }
      assertEquals(0, second.demandGets(), second::toString);
      assertTrue(second.gets().size() <= split, split + " expected at most: " + second);
      assertTrue(second.bytes() <= 1.05 * second.bytesNeeded(), second::toString);
    }
  }

  @Test
  void threeColumnsOfASecondFileAreAllPrefetched() throws Exception {
    InMemoryObjectClient store = store();
    try (S3SeekableInputStreamFactory factory = factory(store)) {
      boolean[] three = include(3, 8, 13);
      read(factory, store, 0, three);

      Cost second = read(factory, store, 1, three);
      assertEquals(0, second.demandGets(), second::toString);
      // Far apart, the three columns are three GETs per stripe, after its footer's.
      assertTrue(second.gets().size() <= 1 + 4 * stripes.size(), second::toString);
    }
  }
}
