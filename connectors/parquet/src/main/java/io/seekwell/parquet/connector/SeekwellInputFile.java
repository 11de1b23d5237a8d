package io.seekwell.parquet.connector;

import io.seekwell.ObjectRange;
import io.seekwell.OpenStreamInformation;
import io.seekwell.S3SeekableInputStream;
import io.seekwell.S3SeekableInputStreamFactory;
import io.seekwell.S3URI;
import io.seekwell.common.object.ObjectMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet-java {@link InputFile} over Seekwell streams: each {@link #newStream()} opens a stream
 * from the factory, and its vectored reads ({@code readVectored}, {@code readVectoredAvailable}) go
 * to Seekwell's coalesced vectored reads. Thread-safe; the factory stays the caller's.
 */
public final class SeekwellInputFile implements InputFile {

  private final S3SeekableInputStreamFactory factory;
  private final S3URI uri;
  private final OpenStreamInformation information;
  private final long length;

  private SeekwellInputFile(
      S3SeekableInputStreamFactory factory,
      S3URI uri,
      OpenStreamInformation information,
      long length) {
    this.factory = factory;
    this.uri = uri;
    this.information = information;
    this.length = length;
  }

  /** A file whose length and ETag the caller knows: opening streams sends no HEAD. */
  public static SeekwellInputFile of(
      S3SeekableInputStreamFactory factory, S3URI uri, ObjectMetadata metadata) {
    Objects.requireNonNull(metadata, "metadata");
    return new SeekwellInputFile(
        factory,
        Objects.requireNonNull(uri, "uri"),
        OpenStreamInformation.builder().objectMetadata(metadata).build(),
        metadata.length());
  }

  /**
   * A file whose length the caller knows but not its ETag: opening streams sends no HEAD, and each
   * stream reads the version its first GET returns.
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public static SeekwellInputFile of(S3SeekableInputStreamFactory factory, S3URI uri, long length) {
    return new SeekwellInputFile(
        factory,
        Objects.requireNonNull(uri, "uri"),
        OpenStreamInformation.builder().objectLength(length).build(),
        length);
  }

  /** A file whose length and ETag are asked of the store once, now, with one HEAD. */
  public static SeekwellInputFile of(S3SeekableInputStreamFactory factory, S3URI uri)
      throws IOException {
    return of(factory, uri, factory.metadata(uri));
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    S3SeekableInputStream stream = factory.createStream(uri, information);
    return new DelegatingSeekableInputStream(stream) {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void seek(long newPosition) throws IOException {
        stream.seek(newPosition);
      }

      @Override
      public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
        return true;
      }

      @Override
      public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
          throws IOException {
        List<ObjectRange> ours = new ArrayList<>(ranges.size());
        for (ParquetFileRange range : ranges) {
          ObjectRange our = ObjectRange.of(range.getOffset(), range.getLength());
          range.setDataReadFuture(our.getByteBuffer());
          ours.add(our);
        }
        stream.readVectored(ours, allocator::allocate, allocator::release);
      }
    };
  }

  @Override
  public String toString() {
    return uri.toString();
  }
}
