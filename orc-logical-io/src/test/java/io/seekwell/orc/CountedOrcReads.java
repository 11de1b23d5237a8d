package io.seekwell.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import io.seekwell.testing.hadoop.SourceFileSystem;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * ORC files in an in-memory store, read by Apache ORC's own reader through one Seekwell factory's
 * streams with the ORC plug-in (positional reads, as Iceberg's ORC reader issues them), each read
 * checked value by value against a read of the same bytes in memory, and counted.
 */
final class CountedOrcReads implements AutoCloseable {

  /** The size GETs are split into. */
  static final long REQUEST_SIZE = 8 << 20;

  private static final String BUCKET = "bucket";

  private final List<byte[]> files;
  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  private final S3SeekableInputStreamFactory factory;

  /**
   * Stores {@code files} and makes a factory whose GETs are countable: files of a few MB are not
   * fetched whole; GETs are split by a fixed size (the in-memory store answers with no latency,
   * which would make measured splits small); the merge gap is {@code mergeGap}.
   */
  CountedOrcReads(List<byte[]> files, String mergeGap) {
    this.files = files;
    for (int i = 0; i < files.size(); i++) {
      store.put(ObjectLocation.of(BUCKET, key(i)), files.get(i));
    }
    factory =
        new S3SeekableInputStreamFactory(
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
                        mergeGap),
                    "seekwell.")));
  }

  private static String key(int file) {
    return "t/data/part-" + file + ".orc";
  }

  /** What one read of one file cost, and the distinct bytes ORC's reader read of it. */
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
   * Reads the {@code include}d columns (ORC's flags, null for all) of file {@code file}, checks
   * every value against a read of its bytes in memory, and returns what it cost.
   */
  Cost read(int file, boolean[] include) throws IOException {
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

  @Override
  public void close() {
    factory.close();
  }
}
