package io.seekwell.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.iceberg.SeekwellS3FileIO;
import io.seekwell.testing.IcebergS3Properties;
import io.seekwell.testing.S3TestBucket;
import io.seekwell.testing.WithS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Writes, overwrites and deletes through {@link SeekwellS3FileIO}, and deletes by another writer,
 * followed by reads through the same FileIO: each read sees the object as the store has it, never
 * as Seekwell cached it before, as with Iceberg's own S3FileIO.
 */
@WithS3Server
class SeekwellS3FileIOWritesMinioTest {

  private SeekwellS3FileIO io;
  private Map<String, String> properties;
  private String root;

  @BeforeEach
  void open(S3TestBucket bucket) {
    properties = IcebergS3Properties.of(bucket.endpoint());
    io = new SeekwellS3FileIO();
    io.initialize(properties);
    root = "s3://" + bucket.name() + "/writes/";
  }

  @AfterEach
  void close() {
    io.close();
  }

  private void write(String path, String content) throws IOException {
    try (OutputStream out = io.newOutputFile(path).createOrOverwrite()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(InputFile file) throws IOException {
    try (InputStream in = file.newStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aFileDeletedThroughTheFileIoIsGoneForIt() throws IOException {
    String path = root + "deleted.avro";
    write(path, "hello");
    assertEquals(5, io.newInputFile(path).getLength());
    assertEquals("hello", read(io.newInputFile(path, 5)));

    io.deleteFile(path);
    assertFalse(io.newInputFile(path).exists());
    assertThrows(NotFoundException.class, () -> io.newInputFile(path).getLength());
    assertThrows(NotFoundException.class, () -> read(io.newInputFile(path, 5)));
  }

  @Test
  void aFileOverwrittenThroughTheFileIoIsReadAnew() throws IOException {
    String path = root + "overwritten.json";
    write(path, "hello");
    assertEquals("hello", read(io.newInputFile(path)));

    write(path, "a longer new content");
    assertEquals(20, io.newInputFile(path).getLength());
    assertEquals("a longer new content", read(io.newInputFile(path)));
    assertEquals("a longer new content", read(io.newOutputFile(path).toInputFile()));
  }

  @Test
  void aFileOverwrittenWithTheSameLengthIsReadAnewByLength() throws IOException {
    String path = root + "same-length.json";
    write(path, "hello");
    assertEquals("hello", read(io.newInputFile(path)));
    assertEquals("hello", read(io.newInputFile(path, 5)));

    write(path, "world");
    assertEquals("world", read(io.newInputFile(path, 5)));
  }

  @Test
  void aFileDeletedByAnotherWriterDoesNotExistForTheFileIo(S3TestBucket bucket) throws IOException {
    String path = root + "deleted-elsewhere.avro";
    write(path, "hello");
    assertTrue(io.newInputFile(path).exists());
    assertEquals("hello", read(io.newInputFile(path)));

    bucket.delete("writes/deleted-elsewhere.avro");
    assertFalse(io.newInputFile(path).exists());
    assertThrows(NotFoundException.class, () -> io.newInputFile(path).getLength());
  }

  @Test
  void filesDeletedInBulkOrByPrefixAreGoneForTheFileIo() throws IOException {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String path = root + (i < 2 ? "bulk/" : "prefix/") + i + ".parquet";
      write(path, "file " + i);
      assertEquals("file " + i, read(io.newInputFile(path, 6)));
      paths.add(path);
    }

    io.deleteFiles(paths.subList(0, 2));
    io.deletePrefix(root + "prefix/");
    for (String path : paths) {
      assertThrows(NotFoundException.class, () -> read(io.newInputFile(path, 6)), path);
    }
  }

  @Test
  void aTableDroppedWithPurgeLeavesNoObject(S3TestBucket bucket) throws IOException {
    Map<String, String> catalogProperties = new HashMap<>(properties);
    catalogProperties.put(CatalogProperties.FILE_IO_IMPL, SeekwellS3FileIO.class.getName());
    catalogProperties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3://" + bucket.name() + "/wh");
    catalogProperties.put(
        CatalogProperties.URI, "jdbc:h2:mem:purge-" + bucket.name() + ";DB_CLOSE_DELAY=-1");
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    TableIdentifier id = TableIdentifier.of("db", "purged");
    try (JdbcCatalog catalog = new JdbcCatalog()) {
      catalog.initialize("jdbc", catalogProperties);
      catalog.createNamespace(Namespace.of("db"));
      Table table = catalog.createTable(id, schema, PartitionSpec.unpartitioned());
      for (int file = 0; file < 3; file++) {
        DataWriter<Record> writer =
            Parquet.writeData(
                    table.io().newOutputFile(table.locationProvider().newDataLocation("f" + file)))
                .schema(schema)
                .createWriterFunc(GenericParquetWriter::create)
                .withSpec(PartitionSpec.unpartitioned())
                .build();
        try (writer) {
          for (long row = 0; row < 100; row++) {
            GenericRecord record = GenericRecord.create(schema);
            record.setField("id", file * 100 + row);
            writer.write(record);
          }
        }
        table.newAppend().appendFile(writer.toDataFile()).commit();
      }
      long rows;
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        rows = java.util.stream.StreamSupport.stream(records.spliterator(), false).count();
      }
      assertEquals(300, rows);

      assertTrue(catalog.dropTable(id, true));
    }
    List<String> left =
        bucket
            .admin()
            .listObjectsV2Paginator(b -> b.bucket(bucket.name()).prefix("wh/db/purged/"))
            .contents()
            .stream()
            .map(S3Object::key)
            .toList();
    assertEquals(List.of(), left);
  }

  @Test
  @SuppressWarnings("deprecation") // how Iceberg 1.11's encryption manager finds Parquet's files
  void anOutputFileKeepsIcebergsNativeEncryptionParameters() {
    Object out = io.newOutputFile(root + "encrypted.parquet");
    assertTrue(out instanceof org.apache.iceberg.encryption.NativelyEncryptedFile);
  }
}
