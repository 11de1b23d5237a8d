package io.seekwell.it.s3a;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.parquet.ParquetFiles;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet written through S3A and read back through parquet-hadoop with S3A's custom stream type
 * set to Seekwell's factory, against MinIO.
 */
class SeekwellS3aParquetMinioTest {

  @Test
  void parquetHadoopReadsTheSameRecordsThroughSeekwellStreams(@TempDir Path dir) throws Exception {
    Path local =
        ParquetFiles.write(
            dir.resolve("t.parquet"), ParquetFiles.doubles(12), 60_000, 1_000_000, 9);
    Configuration conf = SeekwellS3aSetup.configure(new Configuration());
    org.apache.hadoop.fs.Path remote =
        new org.apache.hadoop.fs.Path("s3a://" + SeekwellS3aSetup.BUCKET + "/parquet/t.parquet");
    try (FileSystem fs = FileSystem.newInstance(remote.toUri(), conf)) {
      fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(local.toUri()), remote);
      HadoopInputFile input = HadoopInputFile.fromPath(remote, conf);
      for (List<String> columns : List.of(List.of("c2", "c5", "c11"), List.of("c0"))) {
        assertEquals(
            ParquetFiles.readColumns(new LocalInputFile(local), columns),
            ParquetFiles.readColumns(input, columns, true));
        assertEquals(
            ParquetFiles.readColumns(new LocalInputFile(local), columns),
            ParquetFiles.readColumns(input, columns, false));
      }
      try (FSDataInputStream in = fs.open(remote)) {
        assertEquals(
            "io.seekwell.hadoop.SeekwellS3aInputStream",
            in.getWrappedStream().getClass().getName());
        for (String capability :
            List.of(
                StreamCapabilities.VECTOREDIO,
                StreamCapabilities.UNBUFFER,
                StreamCapabilities.READAHEAD,
                StreamCapabilities.IOSTATISTICS,
                "fs.s3a.input.stream.type.custom")) {
          assertTrue(in.hasCapability(capability), capability);
        }
        in.unbuffer();
        assertEquals('P', in.read());
      }
    }
  }
}
