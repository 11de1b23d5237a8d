package io.seekwell.bench.paths;

import io.seekwell.AnnouncedObject;
import io.seekwell.Announcement;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamConfiguration;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.parquet.connector.SeekwellInputFile;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.apache.parquet.io.InputFile;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Seekwell with its defaults over a Netty {@link S3AsyncClient}; like Iceberg and S3A, it opens
 * with the length the caller knows (no HEAD). Thread-safe, as its factory is: streams and tasks may
 * be made on many threads.
 */
public final class SeekwellPath implements ReadPath {

  private final String bucket;
  private final S3AsyncClient s3;
  private final S3SeekableInputStreamFactory factory;

  SeekwellPath(S3AsyncClient s3, String bucket, S3SeekableInputStreamConfiguration configuration) {
    this.bucket = bucket;
    this.s3 = s3;
    this.factory = new S3SeekableInputStreamFactory(s3, configuration);
  }

  @Override
  public PositionalReader open(String key, long length) throws IOException {
    S3SeekableInputStream stream =
        factory.createStream(
            S3URI.of(bucket, key), OpenStreamInformation.builder().objectLength(length).build());
    return PositionalReader.over(stream, stream::seek);
  }

  @Override
  public InputFile parquetFile(String key, long length) throws IOException {
    return SeekwellInputFile.of(factory, S3URI.of(bucket, key), length);
  }

  /**
   * Announces the files to the factory first, as an engine that knows its task's files would;
   * closing the task closes the announcement.
   */
  @Override
  public Task task(List<String> keys, ToLongFunction<String> lengths) throws IOException {
    Announcement announcement =
        factory.announce(
            keys.stream()
                .map(key -> AnnouncedObject.of(S3URI.of(bucket, key), lengths.applyAsLong(key)))
                .toList());
    try {
      return new Task(ReadPath.super.task(keys, lengths).files(), announcement::close);
    } catch (IOException | RuntimeException e) {
      announcement.close();
      throw e;
    }
  }

  /** The bytes the factory's block cache holds now. */
  public long cachedBytes() {
    return factory.getMemoryUsage().used();
  }

  @Override
  public Optional<MetricsSnapshot> seekwellMetrics() {
    return Optional.of(factory.getMetrics());
  }

  @Override
  public void close() {
    factory.close();
    s3.close();
  }
}
