package io.seekwell.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our footer parse agrees with parquet-java's on a real file. */
class ParquetFooterTest {

  @Test
  void columnChunksMatchParquetJava(@TempDir Path dir) throws IOException {
    Path file =
        ParquetFiles.write(dir.resolve("t.parquet"), ParquetFiles.doubles(5), 20_000, 200_000, 1);
    byte[] bytes = Files.readAllBytes(file);
    int length = ParquetFooter.metadataLength(bytes, file.toString());
    int start = bytes.length - 8 - length;
    ParquetFooter footer = ParquetFooter.parse(bytes, start, length);

    List<ColumnChunk> expected = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      List<BlockMetaData> blocks = reader.getFooter().getBlocks();
      assertTrue(blocks.size() > 1, "several row groups");
      for (int group = 0; group < blocks.size(); group++) {
        for (ColumnChunkMetaData column : blocks.get(group).getColumns()) {
          expected.add(
              new ColumnChunk(
                  Arrays.asList(column.getPath().toArray()),
                  group,
                  column.getDictionaryPageOffset() > 0 ? column.getDictionaryPageOffset() : -1,
                  column.getFirstDataPageOffset(),
                  column.getTotalSize()));
        }
      }
      assertEquals(reader.getRecordCount(), footer.metadata().getNum_rows());
    }
    assertEquals(expected, footer.columnChunks());
    assertEquals("c3", footer.columnChunks().get(3).dottedPath());
  }

  @Test
  void aFileWithoutTheMagicIsRejected() {
    byte[] notParquet = "hello, this is not parquet".getBytes();
    IOException e =
        assertThrows(IOException.class, () -> ParquetFooter.metadataLength(notParquet, "s3://b/k"));
    assertEquals("s3://b/k is not a Parquet file: it does not end with PAR1", e.getMessage());
  }
}
