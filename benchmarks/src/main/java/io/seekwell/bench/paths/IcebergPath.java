package io.seekwell.bench.paths;

import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.iceberg.SeekwellS3FileIO;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Iceberg's {@link S3FileIO} (1.12.0 in the benchmarks) on a counted sync client: its own stream
 * with its defaults, or, with {@code seekwell} settings, Seekwell's {@link SeekwellS3FileIO}
 * (Seekwell's streams, Iceberg's client) given them as {@code seekwell.*} properties.
 */
public final class IcebergPath implements ReadPath {

  private final String bucket;
  private final S3Client s3;
  private final S3FileIO io;

  IcebergPath(S3Client s3, String bucket, Optional<Map<String, String>> seekwell) {
    this.bucket = bucket;
    this.s3 = s3;
    this.io = seekwell.isPresent() ? new SeekwellS3FileIO(() -> s3) : new S3FileIO(() -> s3);
    Map<String, String> properties = new HashMap<>();
    seekwell.ifPresent(settings -> settings.forEach((k, v) -> properties.put("seekwell." + k, v)));
    this.io.initialize(properties);
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
    return parquet(file(key, length), length);
  }

  /** {@code file} of {@code length} bytes as parquet-java's input file, read through its FileIO. */
  public static InputFile parquet(org.apache.iceberg.io.InputFile file, long length) {
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
  public Optional<MetricsSnapshot> seekwellMetrics() {
    return io instanceof SeekwellS3FileIO seekwell
        ? Optional.of(seekwell.seekwellMetrics())
        : Optional.empty();
  }

  @Override
  public void close() {
    io.close();
    s3.close();
  }
}
