package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metric;
import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.TestData;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The input files a thread creates with their lengths before opening one (as Spark's Iceberg reader
 * does for its task's files) are announced: opening the first prefetches the next ones, a task's
 * files cost one GET each, and what was prefetched for files a task never opened is dropped when
 * the thread's next task begins. Files created and opened one at a time (as when computing their
 * metrics from the footer) are no task group.
 */
@WithS3Server
class SeekwellS3FileIOTaskGroupMinioTest {

  private static final int FILES = 12;
  private static final int SIZE = 300_000;

  private final List<byte[]> contents = new ArrayList<>();
  private SeekwellS3FileIO io;
  private String root;

  @BeforeEach
  void open(S3TestBucket bucket) {
    for (int i = 0; i < FILES; i++) {
      byte[] content = TestData.randomBytes(100 + i, SIZE);
      contents.add(content);
      bucket.put("task/part-" + i + ".bin", content);
    }
    Map<String, String> properties = IcebergS3Properties.of(bucket.endpoint());
    properties.put("seekwell.logicalio.announced.prefetch.files", "4");
    // GETs are counted: no hedged copies, which a busy machine's slow first answers could draw.
    properties.put("seekwell.client.hedge.max.copies", "0");
    io = new SeekwellS3FileIO();
    io.initialize(properties);
    root = "s3://" + bucket.name() + "/task/";
  }

  @AfterEach
  void close() {
    io.close();
  }

  /** What a task does first: an input file with its length for each of its files, in order. */
  private List<InputFile> task(int from, int to) {
    List<InputFile> files = new ArrayList<>();
    for (int i = from; i < to; i++) {
      files.add(io.newInputFile(root + "part-" + i + ".bin", SIZE));
    }
    return files;
  }

  private void read(InputFile file, int index) throws IOException {
    byte[] bytes = new byte[SIZE];
    try (SeekableInputStream in = file.newStream()) {
      int n = 0;
      while (n < SIZE) {
        n += in.read(bytes, n, SIZE - n);
      }
    }
    assertArrayEquals(contents.get(index), bytes, file.location());
  }

  private long metric(Metric metric) {
    return io.seekwellMetrics().get(metric);
  }

  @Test
  void aTasksFilesArePrefetchedAheadAndCostOneGetEach() throws IOException {
    List<InputFile> files = task(0, FILES);
    InputFile first = files.get(0);
    try (SeekableInputStream in = first.newStream()) {
      // Opened, nothing read yet: the first file's own GET and the next four files' are sent.
      assertEquals(5L * SIZE, metric(Metric.PREFETCHED_BYTES));
      assertEquals(contents.get(0)[0] & 0xff, in.read());
    }
    for (int i = 0; i < FILES; i++) {
      read(files.get(i), i);
    }
    assertEquals(
        FILES,
        metric(Metric.GET_REQUESTS),
        () ->
            "one GET per file; demand GETs "
                + metric(Metric.DEMAND_GET_REQUESTS)
                + ", bytes "
                + metric(Metric.BYTES_RECEIVED)
                + ", prefetched "
                + metric(Metric.PREFETCHED_BYTES)
                + ", prefetched unused "
                + metric(Metric.PREFETCHED_BYTES_UNUSED));
    assertEquals(0, metric(Metric.DEMAND_GET_REQUESTS), "no read waited for a GET of its own");
    assertEquals((long) FILES * SIZE, metric(Metric.BYTES_RECEIVED));
  }

  @Test
  void whatATaskNeverOpenedIsDroppedWhenTheThreadsNextTaskBegins() throws IOException {
    List<InputFile> cancelled = task(0, 6);
    read(cancelled.get(0), 0);
    read(cancelled.get(1), 1);
    // Files 2 to 5 were prefetched ahead, and the task ends (a LIMIT was reached).
    assertEquals(0, metric(Metric.PREFETCHED_BYTES_UNUSED));

    List<InputFile> next = task(6, 8);
    assertEquals(4L * SIZE, metric(Metric.PREFETCHED_BYTES_UNUSED));
    read(next.get(0), 6);
    read(next.get(1), 7);
    assertEquals(8, metric(Metric.GET_REQUESTS));
  }

  @Test
  void filesCreatedAndOpenedOneAtATimeAreNoTaskGroup() throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "value", Types.DoubleType.get()));
    int files = 6;
    long[] lengths = new long[files];
    for (int i = 0; i < files; i++) {
      lengths[i] = writeParquet(schema, root + "meta/part-" + i + ".parquet", 24_000, i);
    }
    long received = metric(Metric.BYTES_RECEIVED);
    long gets = metric(Metric.GET_REQUESTS);

    for (int i = 0; i < files; i++) {
      // Iceberg's file metrics (importing files): an input file with its length, then its footer.
      InputFile file = io.newInputFile(root + "meta/part-" + i + ".parquet", lengths[i]);
      assertEquals(
          24_000L, ParquetUtil.fileMetrics(file, MetricsConfig.getDefault()).recordCount());
    }

    assertEquals(files, metric(Metric.GET_REQUESTS) - gets, "one GET per footer");
    long fetched = metric(Metric.BYTES_RECEIVED) - received;
    long smallest = Arrays.stream(lengths).min().orElseThrow();
    // Each open fetches a tail of at most 16 KiB (the first guess), not the file of ~190 KB.
    assertTrue(smallest > 10 * 16 * 1024, "files of " + smallest + " bytes");
    assertTrue(fetched <= files * 16 * 1024L, fetched + " bytes fetched for " + files + " footers");
  }

  /** Writes {@code rows} rows to a Parquet file at {@code location}; returns its length. */
  private long writeParquet(Schema schema, String location, int rows, long seed)
      throws IOException {
    DataWriter<Record> writer =
        Parquet.writeData(io.newOutputFile(location))
            .schema(schema)
            .createWriterFunc(GenericParquetWriter::create)
            .withSpec(PartitionSpec.unpartitioned())
            .overwrite()
            .build();
    SplittableRandom random = new SplittableRandom(seed);
    try (writer) {
      for (int row = 0; row < rows; row++) {
        GenericRecord record = GenericRecord.create(schema);
        record.setField("id", (long) row);
        record.setField("value", random.nextDouble());
        writer.write(record);
      }
    }
    return writer.toDataFile().fileSizeInBytes();
  }
}
