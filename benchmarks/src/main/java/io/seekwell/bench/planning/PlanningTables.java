package io.seekwell.bench.planning;

import io.seekwell.bench.store.Clients;
import io.seekwell.bench.store.Uploads;
import io.seekwell.bench.workloads.SampleTable;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.types.Types;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The tables the planning benchmark plans: made once in the store (their metadata location kept in
 * the bucket), of many fast appends of one data file each, so that planning reads one manifest per
 * append.
 */
final class PlanningTables {

  /** The bucket of the planning tables. */
  static final String BUCKET = "seekwell-planning";

  /** Rows per scanned data file: about 1 MB of {@link SampleTable}'s 20 columns. */
  static final int SCAN_ROWS = 6_000;

  private PlanningTables() {}

  /** Makes the {@code i}th data file appended to the table at {@code location}. */
  @FunctionalInterface
  interface AppendedFile {
    DataFile make(S3Client admin, String location, int i) throws IOException;
  }

  /** A data file that is listed but never written: planning does not read data files. */
  static DataFile unwritten(S3Client admin, String location, int i) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location + "/data/f-" + i + ".parquet")
        .withFileSizeInBytes(4096 + i)
        .withRecordCount(100)
        .withFormat(FileFormat.PARQUET)
        .build();
  }

  /** A Parquet file of {@link #SCAN_ROWS} rows of {@link SampleTable}, written to the bucket. */
  static DataFile written(S3Client admin, String location, int i) throws IOException {
    Path local = Files.createTempFile("seekwell-planning-", ".parquet");
    try {
      Files.delete(local);
      SampleTable.write(local, SCAN_ROWS, 1 << 20, i);
      String path = location + "/data/s-" + i + ".parquet";
      admin.putObject(
          b -> b.bucket(BUCKET).key(path.substring(("s3://" + BUCKET + "/").length())),
          RequestBody.fromFile(local));
      return DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(path)
          .withFileSizeInBytes(Files.size(local))
          .withRecordCount(SCAN_ROWS)
          .withFormat(FileFormat.PARQUET)
          .build();
    } finally {
      Files.deleteIfExists(local);
    }
  }

  /**
   * Creates the table {@code name} once (its metadata location is kept in the bucket): {@code
   * snapshots} fast appends of one file each, so that planning reads as many manifests.
   */
  static String prepare(
      URI endpoint,
      StaticCredentialsProvider credentials,
      String name,
      int snapshots,
      AppendedFile files)
      throws IOException {
    String marker = "tables/" + name + ".location";
    try (S3Client admin = Clients.sync(endpoint, credentials, null)) {
      Uploads.ensureBucket(admin, BUCKET);
      try {
        return admin
            .getObjectAsBytes(b -> b.bucket(BUCKET).key(marker))
            .asString(StandardCharsets.UTF_8);
      } catch (NoSuchKeyException e) {
        // Not made yet.
      }
      System.out.printf("... creating a table of %d snapshots (once)%n", snapshots);
      try (S3FileIO io = new S3FileIO(() -> Clients.sync(endpoint, credentials, null))) {
        io.initialize(Map.of());
        String location = "s3://" + BUCKET + "/tables/" + name;
        String metadata = create(io, location, snapshots, admin, files);
        admin.putObject(b -> b.bucket(BUCKET).key(marker), RequestBody.fromString(metadata));
        return metadata;
      }
    }
  }

  /**
   * Creates a table at {@code location} and appends one data file of {@code files} (made with
   * {@code admin}) {@code snapshots} times; returns its metadata file. Only the last metadata is
   * written: planning reads nothing else of it.
   */
  private static String create(
      FileIO io, String location, int snapshots, S3Client admin, AppendedFile files)
      throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));
    UnwrittenMetadata operations = new UnwrittenMetadata(io);
    operations.commit(
        null,
        TableMetadata.newTableMetadata(
            schema,
            PartitionSpec.unpartitioned(),
            location,
            Map.of(TableProperties.MANIFEST_MERGE_ENABLED, "false")));
    Table table = new BaseTable(operations, "planning");
    for (int i = 0; i < snapshots; i++) {
      table.newFastAppend().appendFile(files.make(admin, location, i)).commit();
      if ((i + 1) % 100 == 0) {
        System.out.printf("... %d of %d snapshots%n", i + 1, snapshots);
      }
    }
    String file = location + "/metadata/00001-" + UUID.randomUUID() + ".metadata.json";
    TableMetadataParser.overwrite(operations.current(), io.newOutputFile(file));
    return file;
  }

  /**
   * Table operations that keep the table's metadata in memory: commits write manifests and manifest
   * lists through the FileIO, not metadata files.
   */
  private static final class UnwrittenMetadata implements TableOperations {
    private final FileIO io;
    private TableMetadata current;

    UnwrittenMetadata(FileIO io) {
      this.io = io;
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      if (base != current) {
        throw new CommitFailedException("The table changed since %s", base);
      }
      current = metadata;
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return current.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(current.location(), current.properties());
    }
  }
}
