package io.seekwell.bench;

import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import software.amazon.awssdk.services.s3.S3Client;

/** Iceberg 1.11's own {@link S3FileIO} stream, with its defaults, on a counted sync client. */
final class IcebergPath implements ReadPath {

  private final String bucket;
  private final S3Client s3;
  private final S3FileIO io;

  IcebergPath(S3Client s3, String bucket) {
    this.bucket = bucket;
    this.s3 = s3;
    this.io = new S3FileIO(() -> s3);
    this.io.initialize(Map.of());
  }

  private org.apache.iceberg.io.InputFile file(String key, long length) {
    return io.newInputFile("s3://" + bucket + "/" + key, length);
  }

  @Override
  public PositionalReader open(String key, long length) {
    org.apache.iceberg.io.SeekableInputStream stream = file(key, length).newStream();
    return PositionalReader.over(stream, stream::seek);
  }

  @Override
  public InputFile parquetFile(String key, long length) {
    org.apache.iceberg.io.InputFile file = file(key, length);
    return new InputFile() {
      @Override
      public long getLength() {
        return length;
      }

      @Override
      public SeekableInputStream newStream() {
        org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
        return new DelegatingSeekableInputStream(stream) {
          @Override
          public long getPos() throws IOException {
            return stream.getPos();
          }

          @Override
          public void seek(long position) throws IOException {
            stream.seek(position);
          }
        };
      }
    };
  }

  @Override
  public void close() {
    io.close();
    s3.close();
  }
}
