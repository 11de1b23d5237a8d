package io.seekwell.bench.paths;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.s3.analyticsaccelerator.S3SdkObjectClient;
import software.amazon.s3.analyticsaccelerator.S3SeekableInputStream;
import software.amazon.s3.analyticsaccelerator.S3SeekableInputStreamConfiguration;
import software.amazon.s3.analyticsaccelerator.S3SeekableInputStreamFactory;
import software.amazon.s3.analyticsaccelerator.common.ConnectorConfiguration;
import software.amazon.s3.analyticsaccelerator.common.ObjectRange;
import software.amazon.s3.analyticsaccelerator.util.S3URI;

/**
 * The AWS Analytics Accelerator Library 1.3.1 with its defaults (or given settings), on the same
 * kind of client.
 */
public final class AalPath implements ReadPath {

  private final String bucket;
  private final S3AsyncClient s3;
  private final S3SeekableInputStreamFactory factory;

  AalPath(S3AsyncClient s3, String bucket) {
    this(s3, bucket, Map.of());
  }

  /** With AAL's own settings {@code settings} (its keys, such as {@code physicalio.*}). */
  public AalPath(S3AsyncClient s3, String bucket, Map<String, String> settings) {
    this.bucket = bucket;
    this.s3 = s3;
    this.factory =
        new S3SeekableInputStreamFactory(
            new S3SdkObjectClient(s3, false),
            S3SeekableInputStreamConfiguration.fromConfiguration(
                new ConnectorConfiguration(settings)));
  }

  @Override
  public PositionalReader open(String key, long length) throws IOException {
    S3SeekableInputStream stream = factory.createStream(S3URI.of(bucket, key));
    return PositionalReader.over(stream, stream::seek);
  }

  @Override
  public InputFile parquetFile(String key, long length) {
    return new InputFile() {
      @Override
      public long getLength() {
        return length;
      }

      @Override
      public SeekableInputStream newStream() throws IOException {
        S3SeekableInputStream stream = factory.createStream(S3URI.of(bucket, key));
        return new DelegatingSeekableInputStream(stream) {
          @Override
          public long getPos() {
            return stream.getPos();
          }

          @Override
          public void seek(long position) throws IOException {
            stream.seek(position);
          }

          @Override
          public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
            return true;
          }

          @Override
          public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
              throws IOException {
            List<ObjectRange> theirs = new ArrayList<>(ranges.size());
            for (ParquetFileRange range : ranges) {
              ObjectRange their =
                  new ObjectRange(
                      new java.util.concurrent.CompletableFuture<>(),
                      range.getOffset(),
                      range.getLength());
              range.setDataReadFuture(their.getByteBuffer());
              theirs.add(their);
            }
            stream.readVectored(theirs, allocator::allocate, allocator::release);
          }
        };
      }
    };
  }

  @Override
  public void close() throws IOException {
    factory.close();
    s3.close();
  }
}
