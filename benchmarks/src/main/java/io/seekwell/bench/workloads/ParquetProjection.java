package io.seekwell.bench.workloads;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** Reads Parquet through parquet-java's own readers, with vectored IO on, as engines do. */
public final class ParquetProjection {

  private ParquetProjection() {}

  /** Reads the double {@code columns} of every row and returns a checksum of the values. */
  public static long read(InputFile file, List<String> columns) throws IOException {
    Types.MessageTypeBuilder builder = Types.buildMessage();
    columns.forEach(column -> builder.required(PrimitiveTypeName.DOUBLE).named(column));
    long checksum = 0;
    try (ParquetReader<Group> reader =
        new GroupReaderBuilder(file)
            .set(ReadSupport.PARQUET_READ_SCHEMA, builder.named("table").toString())
            .set("parquet.hadoop.vectored.io.enabled", "true")
            .build()) {
      for (Group group = reader.read(); group != null; group = reader.read()) {
        for (String column : columns) {
          checksum = checksum * 31 + Double.doubleToLongBits(group.getDouble(column, 0));
        }
      }
    }
    return checksum;
  }

  /**
   * Reads the pages of {@code columns} row group by row group with parquet-java's {@link
   * ParquetFileReader} (vectored IO on), decompressed, as a vectorized engine's scan does before it
   * decodes values; returns a checksum of the pages' bytes. Unlike {@link #read}, which assembles a
   * record per row, the time here is the I/O's rather than record assembly's.
   */
  public static long scan(InputFile file, List<String> columns) throws IOException {
    return scan(file, columns, 0, Long.MAX_VALUE);
  }

  /**
   * As {@link #scan(InputFile, List)}, of the row groups whose middle lies in bytes {@code [start,
   * end)} of the file only, as an engine's task reads its split of a file.
   */
  static long scan(InputFile file, List<String> columns, long start, long end) throws IOException {
    ParquetReadOptions options =
        HadoopReadOptions.builder(new Configuration(false))
            .withUseHadoopVectoredIo(true)
            .withRange(start, end)
            .build();
    CRC32 crc = new CRC32();
    CheckedOutputStream checksum = new CheckedOutputStream(OutputStream.nullOutputStream(), crc);
    try (ParquetFileReader reader = ParquetFileReader.open(file, options)) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      Types.MessageTypeBuilder projection = Types.buildMessage();
      columns.forEach(column -> projection.addField(schema.getType(column)));
      MessageType requested = projection.named(schema.getName());
      reader.setRequestedSchema(requested);
      for (PageReadStore rowGroup = reader.readNextRowGroup();
          rowGroup != null;
          rowGroup = reader.readNextRowGroup()) {
        for (ColumnDescriptor column : requested.getColumns()) {
          PageReader pages = rowGroup.getPageReader(column);
          DictionaryPage dictionary = pages.readDictionaryPage();
          if (dictionary != null) {
            dictionary.getBytes().writeAllTo(checksum);
          }
          for (DataPage page = pages.readPage(); page != null; page = pages.readPage()) {
            ((DataPageV1) page).getBytes().writeAllTo(checksum);
          }
        }
      }
    }
    return crc.getValue();
  }

  /** Reads only the footer, as query planning does; returns the number of rows. */
  static long footerRows(InputFile file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(file)) {
      return reader.getRecordCount();
    }
  }

  /**
   * The bytes a reader of {@code columns} of a local Parquet file must fetch at least: their column
   * chunks, the footer and the 8-byte trailer.
   */
  static long bytesNeeded(Path file, List<String> columns) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      long bytes = 0;
      long chunksEnd = 0;
      for (BlockMetaData rowGroup : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
          chunksEnd = Math.max(chunksEnd, chunk.getStartingPos() + chunk.getTotalSize());
          if (columns.contains(chunk.getPath().toDotString())) {
            bytes += chunk.getTotalSize();
          }
        }
      }
      return bytes + Files.size(file) - chunksEnd;
    }
  }

  /** Reads example {@link Group}s from any {@link InputFile}. */
  private static final class GroupReaderBuilder extends ParquetReader.Builder<Group> {
    GroupReaderBuilder(InputFile file) {
      super(file);
    }

    @Override
    protected ReadSupport<Group> getReadSupport() {
      return new GroupReadSupport();
    }
  }
}
