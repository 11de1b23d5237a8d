package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An Iceberg table of ORC files in MinIO, read by Iceberg's own ORC reader (orc-core as Iceberg
 * ships it) through {@link SeekwellS3FileIO} with the ORC plug-in on the class path: the same rows
 * as through {@link S3FileIO}, each file's tail fetched with one GET of the plug-in's size.
 */
@WithS3Server
class SeekwellS3FileIOOrcMinioTest {

  private static final int FILES = 3;
  private static final int ROWS_PER_FILE = 30_000;
  private static final long TAIL_PREFETCH = 256 * 1024;

  private static EventsTable.Written table;
  private static Map<String, String> properties;

  @BeforeAll
  static void writeTable(S3TestBucket bucket) throws IOException {
    properties = IcebergS3Properties.of(bucket.endpoint());
    table =
        EventsTable.write(
            bucket, properties, "orc_events", FileFormat.ORC, FILES, ROWS_PER_FILE, 23);
  }

  @Test
  void readsTheSameRowsAsS3FileIoAndFetchesEachTailWithOneGet(S3TestBucket bucket)
      throws IOException {
    GetCounter icebergGets = new GetCounter();
    IcebergReads.Reads iceberg;
    try (S3FileIO io = new S3FileIO(() -> GetCounter.countingClient(bucket, icebergGets))) {
      io.initialize(properties);
      iceberg = IcebergReads.wholeThenProjected(table.metadataLocation(), io, ROWS_PER_FILE + 1234);
    }

    GetCounter seekwellGets = new GetCounter();
    IcebergReads.Reads seekwell;
    Map<String, String> settings = new HashMap<>(properties);
    // The files (2.7 MB) would be fetched whole as small objects: their tails are the point here.
    settings.put("seekwell.logicalio.small.object.size.threshold", "1MB");
    try (SeekwellS3FileIO io =
        new SeekwellS3FileIO(() -> GetCounter.countingClient(bucket, seekwellGets))) {
      io.initialize(settings);
      seekwell =
          IcebergReads.wholeThenProjected(table.metadataLocation(), io, ROWS_PER_FILE + 1234);
    }

    assertEquals(FILES * ROWS_PER_FILE, iceberg.whole().size());
    assertEquals(FILES * ROWS_PER_FILE - ROWS_PER_FILE - 1234, iceberg.projected().size());
    assertEquals(iceberg, seekwell);
    for (DataFile file : table.files()) {
      String key = file.location().substring(file.location().indexOf("/wh/"));
      String tailGet =
          key
              + " bytes="
              + (file.fileSizeInBytes() - TAIL_PREFETCH)
              + "-"
              + (file.fileSizeInBytes() - 1);
      assertTrue(
          seekwellGets.requests.stream().anyMatch(request -> request.endsWith(tailGet)),
          tailGet + " among " + seekwellGets.requests);
    }
    System.out.printf(
        "Iceberg ORC table read (all rows, then a projection with a filter): S3FileIO %d GETs,"
            + " SeekwellS3FileIO %d GETs%n",
        icebergGets.gets.get(), seekwellGets.gets.get());
    assertTrue(
        seekwellGets.gets.get() <= icebergGets.gets.get(),
        "Seekwell " + seekwellGets.gets.get() + " GETs, Iceberg " + icebergGets.gets.get());
  }
}
